package io.hooklens.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.RunawayCharts;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Helm runs away with some templates; a render past its limits is stopped and becomes HL005 on the chart, and
 * the next render works. The limits are lowered so that each case takes seconds.
 */
@Tag("slow")
class RenderLimitsTest {
  @TempDir
  Path dir;

  /** The chart's findings, each as {@code file:line rule message}, file relative to the chart. */
  private static List<String> lint(Path chart, Map<String, String> limits) throws Exception {
    return RunawayCharts.withProperties(limits, () -> ChartLinterTest.lint(chart, List.of(), SetValues.NONE))
        .stream().map(s -> s.file() + ":" + s.line() + " " + s.ruleId() + " " + s.message()).toList();
  }

  private static String stopped(String why) {
    return "Chart.yaml:1 HL005 Helm cannot render the chart with these values, so what it would install with them is "
        + "not checked: Helm rendering stopped: " + why;
  }

  @Test
  void aTemplateThatLoopsIsStoppedAtTheTimeLimit() throws Exception {
    Path chart = RunawayCharts.write(dir, "spins", RunawayCharts.SPINS);
    long start = System.nanoTime();
    List<String> found = lint(chart, Map.of(RunawayCharts.TIMEOUT, "2"));
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
    assertEquals(List.of(stopped("it ran longer than 2 s; the system property hooklens.helm.timeoutSeconds sets "
        + "the limit")), found);
    // Helm alone would loop for hours; starting a JVM for the next render may take a while on a busy machine.
    assertTrue(seconds < 60, seconds + " s");
  }

  @Test
  void manifestsOverTheOutputLimitAreRefused() throws Exception {
    Path chart = RunawayCharts.write(dir, "large", RunawayCharts.large(2));
    assertEquals(List.of(stopped("it rendered more than 1 MiB; the system property hooklens.helm.outputMiB sets the "
        + "limit")), lint(chart, Map.of(RunawayCharts.OUTPUT, "1")));
    assertEquals(List.of(), lint(chart, Map.of(RunawayCharts.OUTPUT, "3")), "under the limit it renders");
  }

  @Test
  void aTemplateThatGrowsIsStoppedAtTheMemoryLimitAndTheNextChartRenders() throws Exception {
    Path chart = RunawayCharts.write(dir, "grows", RunawayCharts.GROWS);
    assertEquals(List.of(stopped("it used more than 512 MiB of memory; the system property hooklens.helm.memoryMiB "
        + "sets the limit")), lint(chart, Map.of(RunawayCharts.MEMORY, "512")));
    List<String> shop = lint(ChartLinterTest.chart("shop"), Map.of());
    assertTrue(shop.stream().anyMatch(f -> f.startsWith("templates/deployment.yaml:26 HL401")), shop::toString);
  }
}
