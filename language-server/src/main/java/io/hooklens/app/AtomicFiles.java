package io.hooklens.app;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Writes files so that readers see the old content or the new, never half of it, while the file stays the
 * file it was: its owner, group, mode and hard links.
 */
public final class AtomicFiles {
  /** Where Linux shows the process's umask, which Java has no call for. */
  private static final Path STATUS = Path.of("/proc/self/status");

  /** The umask most systems start with, for systems that do not show it. */
  private static final int DEFAULT_UMASK = 0022;

  /** What a replacement must copy from the file it replaces, and how many names the file has. */
  private static final String UNIX_ATTRIBUTES = "unix:uid,gid,mode,nlink";

  private AtomicFiles() {}

  /**
   * Writes to a temporary file in the same directory and moves it over the target. An existing file keeps
   * its owner, group and mode, a new one gets the permissions the umask gives (temporary files are created
   * owner-only), and a symbolic link keeps pointing where it did: the file it names is replaced.
   *
   * <p>A file with other hard links, or whose owner or group this process may not give a new file, is
   * rewritten in place instead, as Vim's {@code backupcopy=auto} does: a move would give the name a new file
   * and leave the other names, or the owner, with the old one.
   */
  public static void write(Path target, byte[] bytes) throws IOException {
    Optional<String> refused = unwritable(target);
    if (refused.isPresent()) {
      // Checked first: the move below would replace an empty directory with the file.
      throw new IOException(refused.get());
    }
    if (!Files.exists(target)) {
      replace(target.toAbsolutePath(), bytes, null);
      return;
    }
    Path real = target.toRealPath();
    Map<String, Object> unix = unixAttributes(real);
    if (unix != null && (Integer) unix.get("nlink") > 1 || !replace(real, bytes, unix)) {
      writeInPlace(real, bytes);
    }
  }

  /**
   * Moves a temporary file with the bytes over {@code real}; false, with nothing changed, when the file's
   * owner or group cannot be given to it.
   *
   * @param unix the existing file's attributes, or null for a new file or a system without them
   */
  private static boolean replace(Path real, byte[] bytes, Map<String, Object> unix) throws IOException {
    Path tmp = Files.createTempFile(real.getParent(), ".hooklens-", ".tmp");
    try {
      Files.write(tmp, bytes);
      if (unix != null) {
        if (!copyOwner(unix, tmp)) {
          return false;
        }
        // After the owner: changing it clears the set-user-ID and set-group-ID bits.
        Files.setAttribute(tmp, "unix:mode", (Integer) unix.get("mode") & 07777);
      } else if (!Files.exists(real)) {
        try {
          Files.setPosixFilePermissions(tmp, newFilePermissions());
        } catch (UnsupportedOperationException e) {
          // Not a POSIX file system: the new file gets the directory's defaults.
        }
      }
      try {
        Files.move(tmp, real, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, real, StandardCopyOption.REPLACE_EXISTING);
      }
      return true;
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /** Gives the temporary file the owner and group in {@code unix}; false where the system refuses. */
  private static boolean copyOwner(Map<String, Object> unix, Path tmp) throws IOException {
    Map<String, Object> made = Files.readAttributes(tmp, "unix:uid,gid");
    try {
      // Only what differs: anyone may keep their own user, and a member may choose among their groups.
      if (!made.get("uid").equals(unix.get("uid"))) {
        Files.setAttribute(tmp, "unix:uid", unix.get("uid"));
      }
      if (!made.get("gid").equals(unix.get("gid"))) {
        Files.setAttribute(tmp, "unix:gid", unix.get("gid"));
      }
      return true;
    } catch (FileSystemException e) {
      return false;
    }
  }

  /**
   * Rewrites the file's own content, so that every name, the owner, the group and the mode stay as they are.
   * Not atomic: a reader at that moment may see part of it. A write that fails (a full disk) puts the old
   * content back before the error goes on.
   */
  private static void writeInPlace(Path real, byte[] bytes) throws IOException {
    byte[] old = Files.readAllBytes(real);
    try (FileChannel channel = FileChannel.open(real, StandardOpenOption.WRITE)) {
      try {
        overwrite(channel, bytes);
      } catch (IOException e) {
        try {
          overwrite(channel, old);
        } catch (IOException again) {
          e.addSuppressed(again);
        }
        throw e;
      }
    }
  }

  private static void overwrite(FileChannel channel, byte[] bytes) throws IOException {
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    while (buffer.hasRemaining()) {
      channel.write(buffer, buffer.position());
    }
    channel.truncate(bytes.length);
    channel.force(true);
  }

  /** Owner, group, mode and link count, or null where the system has no such attributes (Windows). */
  private static Map<String, Object> unixAttributes(Path file) throws IOException {
    try {
      return Files.readAttributes(file, UNIX_ATTRIBUTES);
    } catch (UnsupportedOperationException | IllegalArgumentException e) {
      return null;
    }
  }

  /** 0666 less the umask, as a file that a program creates the ordinary way gets. */
  private static Set<PosixFilePermission> newFilePermissions() {
    int mode = 0666 & ~umask();
    Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
    // The constants run from owner read (0400) to others execute (0001).
    for (PosixFilePermission p : PosixFilePermission.values()) {
      if ((mode & (0400 >> p.ordinal())) != 0) {
        permissions.add(p);
      }
    }
    return permissions;
  }

  private static int umask() {
    try {
      for (String line : Files.readAllLines(STATUS)) {
        if (line.startsWith("Umask:")) {
          return Integer.parseInt(line.substring("Umask:".length()).strip(), 8);
        }
      }
    } catch (IOException | NumberFormatException e) {
      // Not Linux, or a kernel before 4.7 without the line: assume the usual umask.
    }
    return DEFAULT_UMASK;
  }

  /**
   * Why nothing can be written at {@code target}, as far as shows before writing: it is a directory, or the
   * directory it would be in is missing. Commands that work long before they write check it first.
   */
  public static Optional<String> unwritable(Path target) {
    if (Files.isDirectory(target)) {
      return Optional.of("it is a directory");
    }
    Path dir = target.toAbsolutePath().getParent();
    if (!Files.isDirectory(dir)) {
      return Optional.of(Files.exists(dir) ? dir + " is not a directory" : "no such directory " + dir);
    }
    return Optional.empty();
  }
}
