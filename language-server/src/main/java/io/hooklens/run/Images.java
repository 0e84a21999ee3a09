package io.hooklens.run;

import io.hooklens.run.node.Image;
import io.hooklens.run.node.ImageArchive;
import io.hooklens.run.node.NodeAgent;
import io.hooklens.run.node.StopSignal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The images a run gives the embedded node by name: unpacked filesystems ({@code --image-root}, from
 * {@code docker export}) and image archives ({@code --image}, from {@code docker save}), unpacked into a temporary
 * directory that {@link #close()} deletes. An archive also brings the image's entrypoint, env and working
 * directory, so that a container without {@code command} can run.
 */
public final class Images implements AutoCloseable {
  /** No images: every container runs on the host's files and needs a command. */
  public static final Images NONE = new Images(Map.of(), null);

  private final Map<String, Image> byName;
  private final Path unpacked;

  private Images(Map<String, Image> byName, Path unpacked) {
    this.byName = Map.copyOf(byName);
    this.unpacked = unpacked;
  }

  /**
   * @param roots unpacked filesystems by image name
   * @param archives image archives by image name
   * @throws IOException when an archive cannot be read or unpacked; what was unpacked is deleted
   */
  public static Images of(Map<String, Path> roots, Map<String, Path> archives) throws IOException {
    Map<String, Image> byName = new LinkedHashMap<>();
    roots.forEach((name, root) -> byName.put(name, Image.root(root)));
    if (archives.isEmpty()) {
      return new Images(byName, null);
    }
    Path unpacked = Files.createTempDirectory("hooklens-images-");
    Images images = new Images(Map.of(), unpacked);
    try {
      int n = 0;
      for (Map.Entry<String, Path> a : archives.entrySet()) {
        byName.put(a.getKey(), ImageArchive.unpack(a.getValue(), a.getKey(), unpacked.resolve(String.valueOf(n++))));
      }
      NodeAgent.giveToSandbox(unpacked);
    } catch (IOException | RuntimeException e) {
      images.close();
      throw e;
    }
    return new Images(byName, unpacked);
  }

  /** What a container of {@code image} runs: its command and args, or the image's entrypoint and cmd. */
  public List<String> argv(String image, List<String> command, List<String> args) {
    return Image.argv(image == null ? null : byName.get(image), command, args);
  }

  /** Whether the node runs {@code image} in a filesystem of its own rather than the host's. */
  public boolean has(String image) {
    return image != null && byName.containsKey(image);
  }

  /** Whether {@code image} came with an entrypoint or cmd. */
  public boolean hasEntrypoint(String image) {
    Image i = image == null ? null : byName.get(image);
    return i != null && !(i.entrypoint().isEmpty() && i.cmd().isEmpty());
  }

  /** The signal that stops a container of {@code image}: its StopSignal when it names one, else SIGTERM. */
  public String stopSignal(String image) {
    Image i = image == null ? null : byName.get(image);
    return (i == null ? Optional.<StopSignal>empty() : StopSignal.parse(i.stopSignal())).orElse(StopSignal.SIGTERM)
        .name();
  }

  /** Whether {@code image} names a stop signal of its own. */
  public boolean namesStopSignal(String image) {
    Image i = image == null ? null : byName.get(image);
    return i != null && StopSignal.parse(i.stopSignal()).isPresent();
  }

  /** Where {@code image}'s filesystem is, for the plan's description. */
  public Path root(String image) {
    Image i = image == null ? null : byName.get(image);
    return i == null ? null : i.root();
  }

  Map<String, Image> byName() {
    return byName;
  }

  /** Whether any image was given. */
  public boolean isEmpty() {
    return byName.isEmpty();
  }

  /** Deletes what was unpacked. */
  @Override
  public void close() {
    if (unpacked == null || !Files.exists(unpacked)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(unpacked)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      // A temporary directory left behind is harmless; the run's result stands.
    }
  }
}
