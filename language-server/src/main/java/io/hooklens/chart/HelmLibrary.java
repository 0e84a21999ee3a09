package io.hooklens.chart;

import com.marcnuri.helm.jni.HelmLib;
import com.marcnuri.helm.jni.NativeLibrary;
import com.sun.jna.Native;
import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.jar.JarEntry;

/**
 * Helm's native library, unpacked from the jar once per version into a cache folder only the user can write,
 * and loaded from there. helm-java unpacks its 98 MB into a new temporary folder in every process, which took a
 * render worker longer than starting its JVM. Where the cache cannot be used, it is unpacked as helm-java does.
 */
final class HelmLibrary {
  private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> GROUP_OR_OTHERS_WRITE =
      Set.of(PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE);

  private HelmLibrary() {}

  /** Loads the library of this platform, which helm-java's provider on the class path names. */
  static HelmLib load() throws IOException {
    NativeLibrary provider = NativeLibrary.getInstance();
    String name = provider.getBinaryName();
    URL resource = provider.getClass().getResource("/" + name);
    if (resource == null) {
      throw new IOException("Helm's native library " + name + " is not on the class path");
    }
    Optional<Path> cached = cached(resource, name, folder(System.getenv()));
    if (cached.isPresent()) {
      try {
        return Native.load(cached.get().toString(), HelmLib.class);
      } catch (UnsatisfiedLinkError e) {
        // Removed by another version's process as it unpacked its own; unpacked afresh below.
      }
    }
    Path temp = Files.createTempDirectory("helm-java");
    Path file = temp.resolve(name);
    try (InputStream in = resource.openStream()) {
      Files.copy(in, file);
    }
    file.toFile().deleteOnExit();
    temp.toFile().deleteOnExit();
    return Native.load(file.toString(), HelmLib.class);
  }

  /**
   * The cache folder, {@code helm-library} in {@code HOOKLENS_CACHE}, else in {@code $XDG_CACHE_HOME/hooklens},
   * else in ~/.cache/hooklens.
   */
  static Path folder(Map<String, String> environment) {
    String own = environment.get("HOOKLENS_CACHE");
    if (own != null && !own.isBlank()) {
      return Path.of(own, "helm-library");
    }
    String xdg = environment.get("XDG_CACHE_HOME");
    Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg)
        : Path.of(environment.getOrDefault("HOME", System.getProperty("user.home")), ".cache");
    return base.resolve("hooklens").resolve("helm-library");
  }

  /**
   * The library unpacked in {@code folder} under a name made of its checksum and size in the jar, unpacked now
   * if it is not there; other versions' files there are removed. Empty when the folder cannot be made, or is not
   * the user's alone, so that nobody else could change what Helm loads.
   */
  static Optional<Path> cached(URL resource, String name, Path folder) {
    try {
      URLConnection connection = resource.openConnection();
      if (!(connection instanceof JarURLConnection jar)) {
        return Optional.empty();
      }
      JarEntry entry = jar.getJarEntry();
      if (entry.getCrc() < 0 || entry.getSize() < 0) {
        return Optional.empty();
      }
      Files.createDirectories(folder);
      Path probe = Files.createTempFile(folder, "owner", ".tmp");
      boolean ours;
      try {
        ours = Files.getOwner(folder, LinkOption.NOFOLLOW_LINKS).equals(Files.getOwner(probe))
            && !Files.isSymbolicLink(folder);
      } finally {
        Files.delete(probe);
      }
      if (!ours) {
        return Optional.empty();
      }
      Files.setPosixFilePermissions(folder, OWNER_ONLY);
      String dot = name.lastIndexOf('.') < 0 ? "" : name.substring(name.lastIndexOf('.'));
      Path file = folder.resolve(name.substring(0, name.length() - dot.length()) + "-"
          + Long.toHexString(entry.getCrc()) + "-" + entry.getSize() + dot);
      if (!usable(file, entry.getSize())) {
        unpack(resource, file);
        removeOthers(folder, name.substring(0, name.length() - dot.length()) + "-", file);
      }
      return usable(file, entry.getSize()) ? Optional.of(file) : Optional.empty();
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return Optional.empty();
    }
  }

  private static boolean usable(Path file, long size) throws IOException {
    return Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) && Files.size(file) == size
        && Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS).stream()
            .noneMatch(GROUP_OR_OTHERS_WRITE::contains);
  }

  /** Writes the whole file beside its place, then renames it there: a reader never sees part of it. */
  private static void unpack(URL resource, Path file) throws IOException {
    Path part = Files.createTempFile(file.getParent(), "unpacking", ".tmp");
    try {
      try (InputStream in = resource.openStream()) {
        Files.copy(in, part, StandardCopyOption.REPLACE_EXISTING);
      }
      Files.setPosixFilePermissions(part, PosixFilePermissions.fromString("r-x------"));
      // Where another process unpacked the same version first, the same bytes replace its file; a process that
      // loaded that file keeps it.
      Files.move(part, file, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(part);
    }
  }

  /**
   * Removes the files of other versions, and parts that a process stopped while unpacking left behind over an hour
   * ago (a newer part may still be growing).
   */
  private static void removeOthers(Path folder, String prefix, Path keep) throws IOException {
    FileTime hourAgo = FileTime.from(Instant.now().minus(Duration.ofHours(1)));
    try (DirectoryStream<Path> files = Files.newDirectoryStream(folder)) {
      for (Path f : files) {
        String n = f.getFileName().toString();
        boolean stalePart = n.startsWith("unpacking") && n.endsWith(".tmp")
            && Files.getLastModifiedTime(f, LinkOption.NOFOLLOW_LINKS).compareTo(hourAgo) < 0;
        if (!f.equals(keep) && (n.startsWith(prefix) || stalePart)) {
          Files.deleteIfExists(f);
        }
      }
    }
  }
}
