package io.hooklens;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/** Locations the tests read: the repository root, and the real-world corpus when one is named. */
public final class TestPaths {
  /** Names the folder of real public charts and manifests; the tests that read it skip without it. */
  public static final String CORPUS_VARIABLE = "HOOKLENS_CORPUS";

  private TestPaths() {}

  public static Path repoRoot() {
    String p = System.getProperty("hooklens.repoRoot");
    Path root = p != null ? Path.of(p) : Path.of("..");
    return root.toAbsolutePath().normalize();
  }

  /** The repository's own test resources. */
  public static Path testResources() {
    return repoRoot().resolve("language-server/src/test/resources");
  }

  /**
   * A copy of the test chart {@code name} in {@code dir}, so that walks see only what a test puts there and
   * nothing it writes reaches the repository.
   */
  public static Path chartCopy(String name, Path dir) throws IOException {
    Path target = dir.resolve(name);
    copyTree(testResources().resolve("charts").resolve(name), target);
    return target;
  }

  /**
   * Copies a file, or a folder and everything under it, to {@code target}, modes kept (a copied script stays
   * executable).
   */
  public static void copyTree(Path source, Path target) throws IOException {
    try (var files = Files.walk(source)) {
      for (Path p : files.toList()) {
        Path t = target.resolve(source.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(t);
        } else {
          Files.createDirectories(t.getParent());
          Files.copy(p, t, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }

  /**
   * The folder {@value #CORPUS_VARIABLE} names (relative to the repository root), if it is set. A name
   * that is set but is no folder is a broken set-up, not a reason to skip: it fails.
   */
  public static Optional<Path> sharedCorpus() {
    String named = System.getenv(CORPUS_VARIABLE);
    if (named == null || named.isBlank()) {
      return Optional.empty();
    }
    Path corpus = repoRoot().resolve(named).normalize();
    if (!Files.isDirectory(corpus)) {
      throw new IllegalStateException(CORPUS_VARIABLE + " names " + corpus + ", which is not a folder");
    }
    return Optional.of(corpus);
  }

  /** The shared corpus, or the calling test is skipped with the reason. */
  public static Path requireSharedCorpus() {
    Optional<Path> corpus = sharedCorpus();
    assumeTrue(corpus.isPresent(), CORPUS_VARIABLE + " is not set: the real-world corpus tests are skipped");
    return corpus.get();
  }
}
