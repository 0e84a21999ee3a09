package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.TestPaths;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code lint --jobs}: files and charts linted side by side give the report of one job, byte for byte and in every
 * format, with the same standard error and exit code, whatever fails in between.
 */
class LintJobsTest {
  @TempDir
  Path dir;

  /** Runs the same lint with one job and with four, and returns the four-job run once both agree. */
  static CliRun sameWithFourJobs(String... args) {
    CliRun one = CliRun.of(withJobs("1", args));
    CliRun four = CliRun.of(withJobs("4", args));
    assertEquals(one.out(), four.out(), "standard output");
    assertEquals(one.err(), four.err(), "standard error");
    assertEquals(one.exit(), four.exit(), "exit code");
    return four;
  }

  private static String[] withJobs(String jobs, String... args) {
    List<String> all = new ArrayList<>(List.of("lint", "--jobs", jobs, "--color", "never"));
    all.addAll(List.of(args));
    return all.toArray(String[]::new);
  }

  @ParameterizedTest
  @EnumSource(LintCommand.Format.class)
  void theExamplesReportTheSameWithOneJobAndFour(LintCommand.Format format) {
    CliRun r = sameWithFourJobs("-f", format.name(), TestPaths.repoRoot().resolve("examples").toString());
    assertEquals(1, r.exit(), r.err());
  }

  @ParameterizedTest
  @EnumSource(value = LintCommand.Format.class, names = {"text", "json", "sarif"})
  void aTreeWithFailuresInTheMiddleReportsTheSameWithOneJobAndFour(LintCommand.Format format) throws Exception {
    Path tree = tree();
    CliRun r = sameWithFourJobs("-f", format.name(), tree.toString());
    assertEquals(2, r.exit(), "the unreadable file is an input error: " + r.err());
    assertEquals(1, r.err().lines().filter(l -> l.contains("cannot read " + tree.resolve("m/io-error.yaml"))).count(),
        r.err());
    assertTrue(r.err().contains("Input/output error"), r.err());
    // What comes after the failures in order is linted as what comes before.
    for (String file : List.of("a/pod-01.yaml", "m/binary.yaml", "m/syntax.yaml", "z/pod-29.yaml",
        "shop/templates/deployment.yaml", "broken/templates")) {
      assertTrue(r.out().contains(tree.resolve(file).toString()), file + " in\n" + r.out());
    }
  }

  @Test
  void pathsNamedOneByOneReportTheSameWithOneJobAndFour() throws Exception {
    Path tree = tree();
    sameWithFourJobs(tree.resolve("z").toString(), tree.resolve("m/io-error.yaml").toString(),
        tree.resolve("missing.yaml").toString(), tree.resolve("shop/Chart.yaml").toString(), tree.resolve("a").toString(),
        tree.resolve("z/pod-25.yaml").toString());
  }

  @Test
  void aBadConfigurationStopsTheLintAtTheSameInputWithOneJobAndFour() throws Exception {
    Path tree = Files.createDirectory(dir.resolve("fix"));
    List<Path> fixable = new ArrayList<>();
    for (String sub : List.of("a", "b", "c")) {
      for (int i = 0; i < 6; i++) {
        Path file = tree.resolve(sub).resolve("pod-" + i + ".yaml");
        Files.createDirectories(file.getParent());
        Files.writeString(file, LintFixCommandTest.BROKEN, StandardCharsets.UTF_8);
        fixable.add(file);
      }
    }
    Files.writeString(tree.resolve("b/.hooklens.yaml"), "rules: [not a map\n");
    for (String jobs : List.of("1", "4")) {
      CliRun r = CliRun.of("lint", "--jobs", jobs, "--fix", "--color", "never", tree.toString());
      assertEquals(2, r.exit(), r.err());
      assertTrue(r.err().contains("invalid configuration " + tree.resolve("b/.hooklens.yaml")), r.err());
      for (Path file : fixable) {
        // The files before the bad configuration are fixed; none after it, with any number of jobs.
        String expected = file.startsWith(tree.resolve("a")) ? LintFixCommandTest.FIXED : LintFixCommandTest.BROKEN;
        assertEquals(expected, Files.readString(file, StandardCharsets.UTF_8), jobs + " jobs: " + file);
        Files.writeString(file, LintFixCommandTest.BROKEN, StandardCharsets.UTF_8);
      }
    }
  }

  @Test
  void fewerThanOneJobIsAUsageError() {
    CliRun r = CliRun.of("lint", "--jobs", "0", TestPaths.repoRoot().resolve("examples").toString());
    assertEquals(2, r.exit());
    assertEquals("hooklens: --jobs must be at least 1, not 0\n", r.err());
    assertEquals("", r.out());
  }

  /**
   * Manifests in folders around a chart that renders, one Helm refuses, a file whose read fails with an I/O error
   * (a link to {@code /proc/self/mem}), binary bytes and broken YAML.
   */
  private Path tree() throws Exception {
    Path tree = Files.createDirectory(dir.resolve("tree"));
    for (int i = 0; i < 30; i++) {
      Path file = tree.resolve(i < 15 ? "a" : "z").resolve("pod-%02d.yaml".formatted(i));
      Files.createDirectories(file.getParent());
      Files.writeString(file, i % 3 == 0 ? LintCommandTest.CLEAN : LintCommandTest.OVER_BUDGET.replace("web",
          "web-" + i));
    }
    Path middle = Files.createDirectory(tree.resolve("m"));
    Files.createSymbolicLink(middle.resolve("io-error.yaml"), Path.of("/proc/self/mem"));
    byte[] binary = new byte[256];
    for (int i = 0; i < binary.length; i++) {
      binary[i] = (byte) i;
    }
    Files.write(middle.resolve("binary.yaml"), binary);
    Files.writeString(middle.resolve("syntax.yaml"), "kind: Pod\nmetadata: {name: [unclosed\n");
    TestPaths.chartCopy("shop", tree);
    TestPaths.chartCopy("broken", tree);
    return tree;
  }
}
