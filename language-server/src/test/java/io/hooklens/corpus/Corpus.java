package io.hooklens.corpus;

import io.hooklens.TestPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * A folder of {@code manifests/}, {@code openshift/} and {@code charts/}, with the reviewed snapshots of
 * what Hooklens says about it ({@code PART.snapshot}). After a deliberate change, regenerate the snapshots
 * with {@code -Dhooklens.updateSnapshots=true} and review the diff.
 */
public record Corpus(String name, Path root, Path snapshots) {
  /** Hand-written samples kept in the repository: always there. */
  public static Corpus samples() {
    Path root = TestPaths.testResources().resolve("corpus/samples");
    return new Corpus("samples", root, root);
  }

  /** Real public files named by {@code HOOKLENS_CORPUS}; the calling test is skipped without them. */
  public static Corpus shared() {
    return new Corpus("shared", TestPaths.requireSharedCorpus(), TestPaths.testResources().resolve("corpus/shared"));
  }

  public Path part(String part) {
    return root.resolve(part);
  }

  public Path snapshot(String part) {
    return snapshots.resolve(part + ".snapshot");
  }

  /** Whether snapshots are being rewritten in this run. */
  public static boolean updating() {
    return Boolean.getBoolean("hooklens.updateSnapshots");
  }

  /** The YAML and JSON files under {@code dir}, in a stable order. */
  public static List<Path> files(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile)
          .filter(p -> p.getFileName().toString().matches(".*\\.(ya?ml|json)"))
          .sorted().toList();
    }
  }

  /** Compares {@code actual} with the part's snapshot, or rewrites the snapshot when updating. */
  public String expected(String part, String actual) throws IOException {
    Path snapshot = snapshot(part);
    if (updating()) {
      Files.writeString(snapshot, actual);
    }
    return Files.isRegularFile(snapshot) ? Files.readString(snapshot) : "";
  }
}
