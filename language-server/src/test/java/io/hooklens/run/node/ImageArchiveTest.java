package io.hooklens.run.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Image archives as docker save and OCI layouts write them, built here byte by byte, and unpacked. */
class ImageArchiveTest {
  private static final String CONFIG = """
      {"architecture":"amd64","os":"linux","config":{"Entrypoint":["/bin/migrate"],"Cmd":["up"],
       "Env":["PATH=/usr/local/bin:/usr/bin:/bin","MODE=prod"],"WorkingDir":"/app",
       "User":"migrate:staff","StopSignal":"SIGQUIT"}}
      """;

  @TempDir
  Path dir;

  /** One tar entry: a file (text), a directory (text null, link null), or a symbolic link. */
  private record Entry(String name, String text, String link) {
    static Entry file(String name, String text) {
      return new Entry(name, text, null);
    }

    static Entry dir(String name) {
      return new Entry(name, null, null);
    }

    static Entry symlink(String name, String target) {
      return new Entry(name, null, target);
    }
  }

  private static byte[] tar(List<Entry> entries) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (TarArchiveOutputStream out = new TarArchiveOutputStream(bytes)) {
      out.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
      for (Entry e : entries) {
        TarArchiveEntry t;
        if (e.link() != null) {
          t = new TarArchiveEntry(e.name(), TarArchiveEntry.LF_SYMLINK);
          t.setLinkName(e.link());
        } else if (e.text() == null) {
          t = new TarArchiveEntry(e.name().endsWith("/") ? e.name() : e.name() + "/");
        } else {
          t = new TarArchiveEntry(e.name());
          t.setSize(e.text().getBytes(StandardCharsets.UTF_8).length);
          t.setMode(0755);
        }
        out.putArchiveEntry(t);
        if (e.text() != null) {
          out.write(e.text().getBytes(StandardCharsets.UTF_8));
        }
        out.closeArchiveEntry();
      }
    }
    return bytes.toByteArray();
  }

  private static byte[] gzip(byte[] data) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (OutputStream out = new GZIPOutputStream(bytes)) {
      out.write(data);
    }
    return bytes.toByteArray();
  }

  private Path archive(Map<String, byte[]> files) throws IOException {
    Path archive = dir.resolve("image.tar");
    try (TarArchiveOutputStream out = new TarArchiveOutputStream(Files.newOutputStream(archive))) {
      out.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
      for (Map.Entry<String, byte[]> f : files.entrySet()) {
        TarArchiveEntry t = new TarArchiveEntry(f.getKey());
        t.setSize(f.getValue().length);
        out.putArchiveEntry(t);
        out.write(f.getValue());
        out.closeArchiveEntry();
      }
    }
    return archive;
  }

  private static String sha256(byte[] data) throws NoSuchAlgorithmException {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
  }

  /** Two layers: the second removes a file, empties a directory, and tries to write through a link to /. */
  private static List<byte[]> layers() throws IOException {
    byte[] first = tar(List.of(Entry.dir("app"), Entry.file("app/keep", "kept\n"), Entry.file("app/old", "old\n"),
        Entry.dir("cache"), Entry.file("cache/a", "a\n"), Entry.dir("usr"), Entry.dir("usr/bin"),
        Entry.symlink("bin", "usr/bin"), Entry.symlink("escape", "/etc"), Entry.file("../outside", "no\n")));
    byte[] second = tar(List.of(Entry.file("app/.wh.old", ""), Entry.file("cache/.wh..wh..opq", ""),
        Entry.file("cache/b", "b\n"), Entry.file("bin/migrate", "#!/bin/sh\necho migrate\n"),
        Entry.file("escape/passwd", "root::0:0::/:/bin/sh\n")));
    return List.of(first, second);
  }

  private static void assertUnpacked(Image image, Path root) throws IOException {
    assertEquals(root, image.root());
    assertEquals(List.of("/bin/migrate"), image.entrypoint());
    assertEquals(List.of("up"), image.cmd());
    assertEquals(List.of("PATH=/usr/local/bin:/usr/bin:/bin", "MODE=prod"), image.env());
    assertEquals("/app", image.workingDir());
    assertEquals("migrate:staff", image.user());
    assertEquals("SIGQUIT", image.stopSignal());
    assertEquals("kept\n", Files.readString(root.resolve("app/keep")));
    assertFalse(Files.exists(root.resolve("app/old")), "a whiteout removes the file");
    assertFalse(Files.exists(root.resolve("cache/a")), "an opaque whiteout empties the directory");
    assertEquals("b\n", Files.readString(root.resolve("cache/b")));
    assertEquals("#!/bin/sh\necho migrate\n", Files.readString(root.resolve("usr/bin/migrate")),
        "a path through a link in the image lands where the link points inside the image");
    assertTrue(Files.isExecutable(root.resolve("usr/bin/migrate")));
    assertEquals("root::0:0::/:/bin/sh\n", Files.readString(root.resolve("etc/passwd")),
        "a link to /etc means the image's /etc, never the host's");
    assertEquals("no\n", Files.readString(root.resolve("outside")), ".. never climbs out of the root");
    assertFalse(Files.exists(root.getParent().resolve("outside")));
  }

  @Test
  void aDockerSaveArchiveIsUnpackedLayerByLayerWithItsConfig() throws Exception {
    List<byte[]> layers = layers();
    Map<String, byte[]> files = new LinkedHashMap<>();
    files.put("manifest.json", """
        [{"Config":"cfg.json","RepoTags":["other:1"],"Layers":["l1/layer.tar","l2/layer.tar"]},
         {"Config":"cfg.json","RepoTags":["docker.io/library/migrate:1"],"Layers":["l1/layer.tar","l2/layer.tar"]}]
        """.getBytes(StandardCharsets.UTF_8));
    files.put("cfg.json", CONFIG.getBytes(StandardCharsets.UTF_8));
    files.put("l1/layer.tar", layers.get(0));
    files.put("l2/layer.tar", gzip(layers.get(1)));
    Path archive = archive(files);
    Path root = dir.resolve("root");
    assertUnpacked(ImageArchive.unpack(archive, "migrate:1", root), root);
    IOException missing = assertThrows(IOException.class, () -> ImageArchive.unpack(archive, "nope:2",
        dir.resolve("other")));
    assertTrue(missing.getMessage().contains("has no image nope:2; it has other:1, docker.io/library/migrate:1"),
        missing.getMessage());
  }

  @Test
  void anOciLayoutIsUnpackedThroughItsIndexAndManifest() throws Exception {
    List<byte[]> layers = layers();
    byte[] config = CONFIG.getBytes(StandardCharsets.UTF_8);
    byte[] l1 = gzip(layers.get(0));
    byte[] l2 = layers.get(1);
    byte[] manifest = ("{\"schemaVersion\":2,\"config\":{\"digest\":\"sha256:" + sha256(config) + "\"},\"layers\":["
        + "{\"digest\":\"sha256:" + sha256(l1) + "\"},{\"digest\":\"sha256:" + sha256(l2) + "\"}]}")
        .getBytes(StandardCharsets.UTF_8);
    Map<String, byte[]> files = new LinkedHashMap<>();
    files.put("oci-layout", "{\"imageLayoutVersion\":\"1.0.0\"}".getBytes(StandardCharsets.UTF_8));
    files.put("index.json", ("{\"schemaVersion\":2,\"manifests\":[{\"digest\":\"sha256:" + sha256(manifest)
        + "\",\"annotations\":{\"org.opencontainers.image.ref.name\":\"1\"}}]}").getBytes(StandardCharsets.UTF_8));
    files.put("blobs/sha256/" + sha256(config), config);
    files.put("blobs/sha256/" + sha256(l1), l1);
    files.put("blobs/sha256/" + sha256(l2), l2);
    files.put("blobs/sha256/" + sha256(manifest), manifest);
    Path root = dir.resolve("root");
    assertUnpacked(ImageArchive.unpack(archive(files), "migrate:1", root), root);
  }

  @Test
  void somethingElseIsRefusedWithAReason() throws Exception {
    Path archive = archive(Map.of("hello.txt", "hi".getBytes(StandardCharsets.UTF_8)));
    IOException e = assertThrows(IOException.class, () -> ImageArchive.unpack(archive, "x:1", dir.resolve("r")));
    assertTrue(e.getMessage().contains("neither a docker save archive (manifest.json) nor an OCI layout"),
        e.getMessage());
  }

  @Test
  void aContainerRunsItsCommandElseTheImagesEntrypointWithItsArgsElseTheImagesCmd() {
    Image image = new Image(dir, List.of("/bin/migrate"), List.of("up"), List.of(), null, "", null);
    assertEquals(List.of("sh", "-c", "x"), Image.argv(image, List.of("sh"), List.of("-c", "x")));
    assertEquals(List.of("/bin/migrate", "down"), Image.argv(image, null, List.of("down")));
    assertEquals(List.of("/bin/migrate", "up"), Image.argv(image, List.of(), null));
    assertEquals(List.of(), Image.argv(null, null, List.of("down")));
    assertNull(Image.root(dir).workingDir());
  }
}
