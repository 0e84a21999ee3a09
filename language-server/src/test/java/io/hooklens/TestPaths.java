package io.hooklens;

import java.nio.file.Files;
import java.nio.file.Path;

/** Locations the tests read: the repository root and the shared corpus beside it. */
public final class TestPaths {
  private TestPaths() {}

  public static Path repoRoot() {
    String p = System.getProperty("hooklens.repoRoot");
    Path root = p != null ? Path.of(p) : Path.of("..");
    return root.toAbsolutePath().normalize();
  }

  /** {@code ../shared/corpus} beside the repository, as CI lays it out. */
  public static Path corpus() {
    Path c = repoRoot().resolveSibling("shared").resolve("corpus");
    if (!Files.isDirectory(c)) {
      throw new IllegalStateException("The shared corpus is missing at " + c);
    }
    return c;
  }
}
