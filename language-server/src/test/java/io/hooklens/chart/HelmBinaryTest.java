package io.hooklens.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.HelmBinaries;
import io.hooklens.RunawayCharts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A chart rendered by the user's own helm binary gives the findings Helm's library gives, on the same template
 * lines; and the binary's rendering is stopped at the same limits, its processes killed.
 */
@Tag("slow")
class HelmBinaryTest {
  @TempDir
  Path dir;

  /** The chart's findings as the library gives them, then as the binary gives them. */
  private static List<List<ChartLinterTest.Seen>> bothWays(Path chart, Map<String, String> limits) throws Exception {
    List<ChartLinterTest.Seen> library = RunawayCharts.withProperties(limits,
        () -> ChartLinterTest.lint(chart, List.of(), SetValues.NONE));
    Map<String, String> binary = new HashMap<>(limits);
    binary.put(HelmBinary.PROPERTY, HelmBinaries.helmOrSkip().toString());
    List<ChartLinterTest.Seen> helm = RunawayCharts.withProperties(binary,
        () -> ChartLinterTest.lint(chart, List.of(), SetValues.NONE));
    return List.of(library, helm);
  }

  @ParameterizedTest
  @ValueSource(strings = {"hook-order", "crd-copies", "required-value", "shop", "hook-typo", "refused-hooks",
      "helm-reference-failing", "umbrella", "unvendored", "values-place", "ci-hook"})
  void aFixtureChartHasTheSameFindingsOnTheSameLinesThroughTheBinary(String name) throws Exception {
    List<List<ChartLinterTest.Seen>> both = bothWays(ChartLinterTest.chart(name), Map.of());
    assertFalse(both.get(0).isEmpty(), "the fixture has findings to compare");
    assertEquals(both.get(0), both.get(1));
  }

  @Test
  void aDependencyBuildThroughTheBinaryRendersTheDependencyAsTheLibrarysDoes() throws Exception {
    Path parent = ChartLinterTest.parentWithLocalDependency(dir);
    List<ChartLinterTest.Seen> library = ChartLinterTest.lintWithDependencies(parent);
    List<ChartLinterTest.Seen> helm = RunawayCharts.withProperties(
        Map.of(HelmBinary.PROPERTY, HelmBinaries.helmOrSkip().toString()),
        () -> ChartLinterTest.lintWithDependencies(parent));
    String childTest = parent.resolve("charts/child-0.1.0.tgz/child/templates/test.yaml").toString();
    assertTrue(helm.stream().anyMatch(s -> s.file().equals(childTest) && s.ruleId().equals("HL216")),
        "the dependency's templates render: " + helm);
    assertEquals(library, helm);
    assertFalse(Files.exists(parent.resolve("charts")), "the chart's own charts/ is not written");
    assertFalse(Files.exists(parent.resolve("Chart.lock")), "nor its lock file");
  }

  @Test
  void aDependencyTheBinaryCannotFetchIsSaidWithThePathBesideTheChart() throws Exception {
    Path parent = ChartLinterTest.parentWithLocalDependency(dir);
    Files.writeString(parent.resolve("Chart.yaml"), Files.readString(parent.resolve("Chart.yaml"))
        .replace("file://../child", "file://../gone"));
    String message = RunawayCharts.withProperties(Map.of(HelmBinary.PROPERTY, HelmBinaries.helmOrSkip().toString()),
        () -> {
          try {
            ChartLinterTest.lintWithDependencies(parent);
            return "built";
          } catch (ChartLinter.DependenciesFailed e) {
            return e.getMessage();
          }
        });
    assertTrue(message.contains(dir.resolve("gone").toString()), message);
    assertFalse(message.contains("hooklens-chart-"), message);
  }

  @Test
  void theSetValuesReachTheBinaryAsTheyReachTheLibrary() throws Exception {
    Path chart = ChartLinterTest.chart("required-value");
    SetValues set = new SetValues(List.of("password=s3cret"), List.of("image.tag=010"), List.of());
    List<ChartLinterTest.Seen> library = ChartLinterTest.lint(chart, List.of(), set);
    List<ChartLinterTest.Seen> helm = RunawayCharts.withProperties(
        Map.of(HelmBinary.PROPERTY, HelmBinaries.helmOrSkip().toString()),
        () -> ChartLinterTest.lint(chart, List.of(), set));
    assertEquals(library, helm);
  }

  @Test
  void aRenderOverTheOutputLimitIsStoppedWithTheSameFinding() throws Exception {
    Path chart = RunawayCharts.write(dir, "large", RunawayCharts.large(2));
    List<List<ChartLinterTest.Seen>> both = bothWays(chart, Map.of(RunawayCharts.OUTPUT, "1"));
    assertEquals(1, both.get(1).size(), both.get(1)::toString);
    assertTrue(both.get(1).get(0).message().endsWith("Helm rendering stopped: it rendered more than 1 MiB; the "
        + "system property hooklens.helm.outputMiB sets the limit"), both.get(1)::toString);
    assertEquals(both.get(0), both.get(1));
  }

  @Test
  void aRenderPastTheTimeLimitIsStoppedAndEveryProcessOfHelmsGroupKilled() throws Exception {
    Path helm = HelmBinaries.helmOrSkip();
    Optional<Path> setsid = HelmBinary.find("setsid");
    Assumptions.assumeTrue(setsid.isPresent(), "no setsid here to give Helm a process group");
    // A helm that leaves a process behind, outside its tree but in its group, before it becomes Helm.
    String marker = "hooklens-left-" + ProcessHandle.current().pid();
    Path wrapper = dir.resolve("helm-wrapper");
    Files.writeString(wrapper, "#!/bin/sh\n(sh -c 'sleep 600; :' " + marker + " &)\nexec " + helm + " \"$@\"\n");
    Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwx------"));
    Path chart = RunawayCharts.write(dir, "spins", RunawayCharts.SPINS);
    List<ChartLinterTest.Seen> found = RunawayCharts.withProperties(
        Map.of(RunawayCharts.TIMEOUT, "2", HelmBinary.PROPERTY, wrapper.toString()),
        () -> ChartLinterTest.lint(chart, List.of(), SetValues.NONE));
    assertEquals(1, found.size(), found::toString);
    assertTrue(found.get(0).message().endsWith("Helm rendering stopped: it ran longer than 2 s; the system property "
        + "hooklens.helm.timeoutSeconds sets the limit"), found::toString);
    // A killed process may take a moment to be reaped.
    long until = System.nanoTime() + 10_000_000_000L;
    while (left(marker) && System.nanoTime() < until) {
      Thread.sleep(100);
    }
    assertFalse(left(marker), "the process Helm left in its group is killed");
  }

  private static boolean left(String marker) {
    return ProcessHandle.allProcesses().anyMatch(p -> p.info().commandLine().orElse("").contains(marker));
  }

  @Test
  void aHelmNamedThatIsNoExecutableIsSaidRatherThanRendered() throws Exception {
    Optional<String> why = RunawayCharts.withProperties(Map.of(HelmBinary.PROPERTY, dir.resolve("nohelm").toString()),
        ChartRenderer::unavailable);
    assertTrue(why.isPresent() && why.get().contains("is not an executable file"), why::toString);
  }
}
