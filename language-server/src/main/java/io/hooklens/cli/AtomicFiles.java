package io.hooklens.cli;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/** Writes files so that readers see the old content or the new, never half of it. */
final class AtomicFiles {
  /** Where Linux shows the process's umask, which Java has no call for. */
  private static final Path STATUS = Path.of("/proc/self/status");

  /** The umask most systems start with, for systems that do not show it. */
  private static final int DEFAULT_UMASK = 0022;

  private AtomicFiles() {}

  /**
   * Writes to a temporary file in the same directory and moves it over the target. An existing file
   * keeps its permissions, a new one gets those the umask gives (temporary files are created owner-only),
   * and a symbolic link keeps pointing where it did: the file it names is replaced.
   */
  static void write(Path target, byte[] bytes) throws IOException {
    Optional<String> refused = unwritable(target);
    if (refused.isPresent()) {
      // Checked first: the move below would replace an empty directory with the file.
      throw new IOException(refused.get());
    }
    Path real = Files.exists(target) ? target.toRealPath() : target.toAbsolutePath();
    Path tmp = Files.createTempFile(real.getParent(), ".hooklens-", ".tmp");
    try {
      Files.write(tmp, bytes);
      try {
        Files.setPosixFilePermissions(tmp,
            Files.exists(real) ? Files.getPosixFilePermissions(real) : newFilePermissions());
      } catch (UnsupportedOperationException e) {
        // Not a POSIX file system: the new file gets the directory's defaults.
      }
      try {
        Files.move(tmp, real, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, real, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
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
  static Optional<String> unwritable(Path target) {
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
