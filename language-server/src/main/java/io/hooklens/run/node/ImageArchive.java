package io.hooklens.run.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarFile;

/**
 * An image archive unpacked for the embedded node: the tar that {@code docker save} or {@code podman save} writes
 * ({@code manifest.json}, then each image's config and layers) or an OCI image layout in a tar ({@code index.json},
 * blobs), its layers applied in order with their whiteouts, and its config's entrypoint, command, environment and
 * working directory. Nothing in an archive can write outside the directory it is unpacked into: paths are joined
 * as a container runtime joins them, symbolic links resolved inside the root.
 */
public final class ImageArchive {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String WHITEOUT = ".wh.";
  private static final String OPAQUE = ".wh..wh..opq";
  private static final int MAX_LINKS = 40;

  private ImageArchive() {}

  /**
   * Unpacks the image {@code name} of an archive (its only image when it holds one) into {@code into}, an empty
   * directory.
   *
   * @throws IOException when the archive cannot be read, holds no such image, or a layer is broken
   */
  public static Image unpack(Path archive, String name, Path into) throws IOException {
    try (TarFile tar = new TarFile(archive.toFile())) {
      JsonNode manifest = json(tar, "manifest.json");
      String config;
      List<String> layers = new ArrayList<>();
      if (manifest != null) {
        JsonNode image = choose(manifest, name, archive);
        config = image.path("Config").asText();
        image.path("Layers").forEach(l -> layers.add(l.asText()));
      } else {
        JsonNode index = json(tar, "index.json");
        if (index == null) {
          throw new IOException(archive + " is neither a docker save archive (manifest.json) nor an OCI layout "
              + "(index.json)");
        }
        JsonNode descriptor = chooseOci(index, name, archive);
        JsonNode image = json(tar, blob(descriptor));
        if (image == null || !image.has("config")) {
          throw new IOException(archive + ": the image's manifest is missing or is an index of platforms; save one "
              + "platform's image");
        }
        config = blob(image.path("config"));
        image.path("layers").forEach(l -> layers.add(blob(l)));
      }
      JsonNode settings = json(tar, config);
      if (settings == null) {
        throw new IOException(archive + ": no image config " + config);
      }
      Files.createDirectories(into);
      for (String layer : layers) {
        TarArchiveEntry entry = entry(tar, layer);
        if (entry == null) {
          throw new IOException(archive + ": no layer " + layer);
        }
        applyLayer(tar.getInputStream(entry), into);
      }
      JsonNode c = settings.path("config");
      return new Image(into, strings(c.path("Entrypoint")), strings(c.path("Cmd")), strings(c.path("Env")),
          c.path("WorkingDir").asText("").isEmpty() ? null : c.path("WorkingDir").asText(), c.path("User").asText(""),
          c.path("StopSignal").asText("").isEmpty() ? null : c.path("StopSignal").asText());
    }
  }

  private static JsonNode choose(JsonNode manifest, String name, Path archive) throws IOException {
    List<String> tags = new ArrayList<>();
    for (JsonNode image : manifest) {
      for (JsonNode tag : image.path("RepoTags")) {
        tags.add(tag.asText());
        if (matches(tag.asText(), name)) {
          return image;
        }
      }
    }
    if (manifest.size() == 1) {
      return manifest.get(0);
    }
    throw new IOException(archive + " has no image " + name + "; it has " + (tags.isEmpty() ? "untagged images"
        : String.join(", ", tags)));
  }

  private static JsonNode chooseOci(JsonNode index, String name, Path archive) throws IOException {
    JsonNode manifests = index.path("manifests");
    for (JsonNode m : manifests) {
      String ref = m.path("annotations").path("org.opencontainers.image.ref.name").asText("");
      String full = m.path("annotations").path("io.containerd.image.name").asText("");
      if (matches(full, name) || !ref.isEmpty() && (name.endsWith(":" + ref) || name.equals(ref))) {
        return m;
      }
    }
    if (manifests.size() == 1) {
      return manifests.get(0);
    }
    throw new IOException(archive + " holds " + manifests.size() + " images and none is named " + name);
  }

  /** Docker names {@code nginx:1.27} {@code docker.io/library/nginx:1.27} in some archives. */
  private static boolean matches(String tag, String name) {
    return tag.equals(name) || tag.equals("docker.io/library/" + name) || tag.equals("docker.io/" + name)
        || tag.equals("localhost/" + name);
  }

  private static String blob(JsonNode descriptor) {
    String digest = descriptor.path("digest").asText();
    int colon = digest.indexOf(':');
    return "blobs/" + digest.substring(0, Math.max(0, colon)) + "/" + digest.substring(colon + 1);
  }

  private static TarArchiveEntry entry(TarFile tar, String name) {
    String wanted = strip(name);
    return tar.getEntries().stream().filter(e -> strip(e.getName()).equals(wanted)).findFirst().orElse(null);
  }

  private static String strip(String name) {
    return name.startsWith("./") ? name.substring(2) : name;
  }

  private static JsonNode json(TarFile tar, String name) throws IOException {
    TarArchiveEntry entry = entry(tar, name);
    if (entry == null) {
      return null;
    }
    try (InputStream in = tar.getInputStream(entry)) {
      return JSON.readTree(in);
    }
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  /** Applies one layer (a tar, gzip-compressed or not) onto the root, whiteouts included. */
  static void applyLayer(InputStream raw, Path root) throws IOException {
    InputStream in = new BufferedInputStream(raw);
    in.mark(2);
    int b1 = in.read();
    int b2 = in.read();
    in.reset();
    InputStream plain = b1 == 0x1f && b2 == 0x8b ? new GZIPInputStream(in) : in;
    try (TarArchiveInputStream layer = new TarArchiveInputStream(plain)) {
      TarArchiveEntry e;
      while ((e = layer.getNextEntry()) != null) {
        Path relative = relative(e.getName());
        if (relative == null) {
          continue;
        }
        String base = relative.getFileName().toString();
        Path parent = relative.getParent() == null ? Path.of("") : relative.getParent();
        if (base.equals(OPAQUE)) {
          Path dir = join(root, parent);
          if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            try (Stream<Path> children = Files.list(dir)) {
              for (Path child : children.toList()) {
                delete(child);
              }
            }
          }
          continue;
        }
        if (base.startsWith(WHITEOUT)) {
          delete(join(root, parent.resolve(base.substring(WHITEOUT.length()))));
          continue;
        }
        Path target = join(root, relative);
        Files.createDirectories(target.getParent());
        if (e.isDirectory()) {
          if (!Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
            delete(target);
            Files.createDirectory(target);
          }
          permissions(target, e.getMode() | 0700);
        } else if (e.isSymbolicLink()) {
          delete(target);
          Files.createSymbolicLink(target, Path.of(e.getLinkName()));
        } else if (e.isLink()) {
          Path relativeSource = relative(e.getLinkName());
          Path source = relativeSource == null ? null : join(root, relativeSource);
          if (source != null && Files.isRegularFile(source, LinkOption.NOFOLLOW_LINKS)) {
            delete(target);
            Files.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES);
          }
        } else if (e.isFile()) {
          delete(target);
          Files.copy(layer, target);
          permissions(target, e.getMode() | 0600);
        }
        // Devices, FIFOs and sockets are left out: the sandbox gives the container its own /dev.
      }
    }
  }

  /** An entry's path inside the root, or null for the root itself; {@code ..} never climbs out. */
  private static Path relative(String name) {
    Path p = Path.of("/").resolve(name).normalize();
    return p.getNameCount() == 0 ? null : Path.of("/").relativize(p);
  }

  /**
   * {@code root/relative} with every symbolic link on the way (not the last name) resolved inside the root, as a
   * container runtime resolves paths in an image: a link to {@code /usr/bin} means the root's {@code usr/bin}.
   */
  static Path join(Path root, Path relative) throws IOException {
    Path current = root;
    List<String> names = new ArrayList<>();
    relative.forEach(n -> names.add(n.toString()));
    int links = 0;
    for (int i = 0; i < names.size(); i++) {
      String name = names.get(i);
      if (name.equals("..")) {
        current = current.equals(root) ? root : current.getParent();
        continue;
      }
      Path next = current.resolve(name);
      if (i < names.size() - 1 && Files.isSymbolicLink(next)) {
        if (++links > MAX_LINKS) {
          throw new IOException("too many symbolic links in " + relative);
        }
        Path link = Files.readSymbolicLink(next);
        List<String> rest = new ArrayList<>();
        link.forEach(n -> rest.add(n.toString()));
        names.subList(0, i + 1).clear();
        names.addAll(0, rest);
        i = -1;
        if (link.isAbsolute()) {
          current = root;
        }
        continue;
      }
      current = next;
    }
    return current;
  }

  private static void delete(Path path) throws IOException {
    if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
      try (Stream<Path> walk = Files.walk(path)) {
        for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    } else {
      Files.deleteIfExists(path);
    }
  }

  private static void permissions(Path path, int mode) throws IOException {
    Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
    PosixFilePermission[] order = {PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE,
        PosixFilePermission.OTHERS_READ, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE,
        PosixFilePermission.GROUP_READ, PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE,
        PosixFilePermission.OWNER_READ};
    for (int bit = 0; bit < order.length; bit++) {
      if ((mode & (1 << bit)) != 0) {
        set.add(order[bit]);
      }
    }
    Files.setPosixFilePermissions(path, set);
  }
}
