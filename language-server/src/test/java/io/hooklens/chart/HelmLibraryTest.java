package io.hooklens.chart;

import io.hooklens.TestPaths;
import io.hooklens.core.engine.Config;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Helm's native library is unpacked once per version, into a folder only the user can write. */
class HelmLibraryTest {
  private static final String NAME = "helm-test.so";

  @TempDir
  Path dir;

  @Test
  void unpacksOnceUnderItsChecksumAndSizeAndRemovesOtherVersions() throws Exception {
    byte[] bytes = "not really a library".getBytes();
    URL resource = jar("one.jar", bytes);
    Path folder = dir.resolve("cache/helm");
    Files.createDirectories(folder);
    Path older = Files.writeString(folder.resolve("helm-test-1234-5.so"), "older");
    Path growing = Files.writeString(folder.resolve("unpacking1.tmp"), "part");
    Path stale = Files.writeString(folder.resolve("unpacking2.tmp"), "part");
    Files.setLastModifiedTime(stale, FileTime.from(Instant.now().minusSeconds(7200)));

    Path file = HelmLibrary.cached(resource, NAME, folder).orElseThrow();
    assertEquals("helm-test-" + Long.toHexString(crc(bytes)) + "-" + bytes.length + ".so",
        file.getFileName().toString());
    assertArrayEquals(bytes, Files.readAllBytes(file));
    assertEquals("r-x------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(folder)));
    assertFalse(Files.exists(older), "another version's library");
    assertFalse(Files.exists(stale), "a part left over an hour ago");
    assertTrue(Files.exists(growing), "a part that may still be growing");

    Object inode = Files.getAttribute(file, "unix:ino");
    assertEquals(Optional.of(file), HelmLibrary.cached(resource, NAME, folder));
    assertEquals(inode, Files.getAttribute(file, "unix:ino"), "unpacked again");
  }

  /** The build points {@code HOOKLENS_CACHE} into target/, where the render worker unpacks the real library. */
  @Test
  void theRenderWorkerLoadsHelmFromTheCache() throws Exception {
    ChartLinter.Manifests m = (ChartLinter.Manifests) ChartLinter.render(TestPaths.repoRoot().resolve("examples/shop"),
        List.of(), SetValues.NONE, Config.DEFAULT.targets().kubernetes());
    assertFalse(m.parsed().documents().isEmpty());
    Path folder = HelmLibrary.folder(System.getenv());
    assertTrue(folder.startsWith(TestPaths.repoRoot()), folder + " is outside the repository");
    try (Stream<Path> files = Files.list(folder)) {
      List<Path> libraries = files.filter(f -> f.getFileName().toString().startsWith("helm-linux-amd64-")).toList();
      assertEquals(1, libraries.size(), libraries.toString());
      assertEquals("r-x------", PosixFilePermissions.toString(Files.getPosixFilePermissions(libraries.get(0))));
    }
  }

  @Test
  void aFileOthersCouldHaveChangedIsUnpackedAgain() throws Exception {
    byte[] bytes = "library".getBytes();
    URL resource = jar("one.jar", bytes);
    Path folder = dir.resolve("helm");
    Path file = HelmLibrary.cached(resource, NAME, folder).orElseThrow();
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxrwxrwx"));
    Files.writeString(file, "changed");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxrwxrwx"));

    assertEquals(Optional.of(file), HelmLibrary.cached(resource, NAME, folder));
    assertArrayEquals(bytes, Files.readAllBytes(file));
    assertEquals("r-x------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
  }

  @Test
  void aLinkedFolderOrALibraryOutsideAJarIsNotCached() throws Exception {
    Path real = Files.createDirectories(dir.resolve("real"));
    Path link = Files.createSymbolicLink(dir.resolve("link"), real);
    assertEquals(Optional.empty(), HelmLibrary.cached(jar("one.jar", new byte[] {1}), NAME, link));
    assertEquals(List.of(), List.of(real.toFile().list()));

    Path loose = Files.write(dir.resolve(NAME), new byte[] {1});
    assertEquals(Optional.empty(), HelmLibrary.cached(loose.toUri().toURL(), NAME, dir.resolve("cache")));
  }

  @Test
  void theFolderIsHooklensCacheThenTheXdgCacheThenHome() {
    assertEquals(Path.of("/c/helm-library"),
        HelmLibrary.folder(Map.of("HOOKLENS_CACHE", "/c", "XDG_CACHE_HOME", "/x")));
    assertEquals(Path.of("/x/hooklens/helm-library"), HelmLibrary.folder(Map.of("XDG_CACHE_HOME", "/x", "HOME", "/h")));
    assertEquals(Path.of("/h/.cache/hooklens/helm-library"),
        HelmLibrary.folder(Map.of("HOME", "/h", "HOOKLENS_CACHE", "")));
  }

  private URL jar(String name, byte[] bytes) throws IOException {
    Path jar = dir.resolve(name);
    try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out)) {
      j.putNextEntry(new JarEntry(NAME));
      j.write(bytes);
      j.closeEntry();
    }
    return new URL("jar:" + jar.toUri() + "!/" + NAME);
  }

  private static long crc(byte[] bytes) {
    CRC32 crc = new CRC32();
    crc.update(bytes);
    return crc.getValue();
  }
}
