package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.ChildJvm;
import io.hooklens.HelmBinaries;
import io.hooklens.TestPaths;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --helm} renders with the helm binary it names: the same report as Helm's library gives, or a usage error. */
@Tag("slow")
class HelmBinaryCommandTest {
  @TempDir
  java.nio.file.Path dir;

  private ChildJvm cli(String... args) throws Exception {
    return ChildJvm.run(dir, Main.class, args);
  }

  @Test
  void lintAndHooksGiveTheSameReportThroughTheBinaryNamed() throws Exception {
    String helm = HelmBinaries.helmOrSkip().toString();
    String chart = TestPaths.repoRoot().resolve("examples/shop").toString();
    ChildJvm library = cli("lint", "--format", "json", chart);
    ChildJvm binary = cli("lint", "--format", "json", "--helm", helm, chart);
    assertEquals(1, library.exit(), library.err());
    assertEquals(library.exit(), binary.exit(), binary.err());
    assertEquals(library.out(), binary.out());
    ChildJvm plannedByLibrary = cli("hooks", chart);
    ChildJvm plannedByBinary = cli("hooks", "--helm", helm, chart);
    assertEquals(0, plannedByBinary.exit(), plannedByBinary.err());
    assertEquals(plannedByLibrary.out(), plannedByBinary.out());
  }

  @Test
  void aHelmThatIsNoExecutableIsAUsageError() throws Exception {
    ChildJvm r = cli("lint", "--helm", dir.resolve("helm").toString(), TestPaths.repoRoot().resolve("examples/shop")
        .toString());
    assertEquals(ExitCodes.USAGE, r.exit(), r.err());
    assertTrue(r.err().contains("--helm " + dir.resolve("helm") + ": not an executable file"), r.err());
  }
}
