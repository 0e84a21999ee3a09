package io.hooklens.run.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * When probes made a container Ready, and how they failed before, in all three reports: the pod is deleted once it
 * is Ready, so this is why the deletion came when it did.
 */
class ReadinessReportTest {
  private static final String FAILED = "Readiness probe failed: command 'test -f /tmp/ready' exited with 1: ";

  // No postStart: the start chart is there for the probes alone. Deleted 0.2 s after Ready.
  private static RunReport report() {
    List<ContainerResult.ProbeMark> probes = List.of(
        new ContainerResult.ProbeMark(1400, ContainerResult.ProbeMark.UNHEALTHY, FAILED),
        new ContainerResult.ProbeMark(2400, ContainerResult.ProbeMark.UNHEALTHY, FAILED),
        new ContainerResult.ProbeMark(3100, ContainerResult.ProbeMark.READY, ""));
    ContainerResult app = new ContainerResult("app", "serve", 300L, 400L, 3500L, 0, "Completed", 0,
        List.of(new ContainerResult.Attempt(0, 300L, 400L, 3500L, 0, "Completed", null, "", 0)), "", 0, 3100L,
        probes);
    Step step = new Step("pod", "delete", "Pod/warming", "default", "warming", 5, 3300L, 3600L, "node", List.of(app),
        List.of(), List.of(new Signal("app", "SIGTERM", 3300)), List.of(), List.of(), List.of());
    return new RunReport(1, "warming.yaml", "embedded", true, List.of(step), List.of(), List.of(), 900L);
  }

  @Test
  void theTextReportMarksReadyOnTheStartChartAndListsTheProbes() {
    String text = TextReport.render(report(), 100, false);
    String row = text.lines().filter(l -> l.startsWith("  app ") && l.contains("Ready at")).findFirst()
        .orElseThrow(() -> new AssertionError(text));
    assertTrue(row.contains("Running at 0.4 s, Ready at 3.1 s, 2 probe failures"), row);
    assertEquals(2, row.chars().filter(ch -> ch == '!').count(), "each failure on the chart: " + text);
    assertTrue(row.indexOf('Y') > row.lastIndexOf('!'), "Ready comes after the failures: " + row);
    assertTrue(text.contains("(R Running, Y Ready, ! probe failed)"), "the start chart names its marks: " + text);
    assertTrue(text.contains("at 3.1 s    Ready"), text);
    assertTrue(text.contains("at 1.4 s    Unhealthy  " + FAILED.strip()), text);
  }

  @Test
  void theJsonReportHasReadyMsAndTheProbes() {
    JsonNode app = JsonReport.tree(report()).path("steps").path(0).path("containers").path(0);
    assertEquals(3100, app.path("readyMs").asLong());
    assertEquals("Ready", app.path("probes").path(2).path("kind").asText());
    assertEquals(FAILED, app.path("probes").path(0).path("message").asText());
  }

  @Test
  void theSvgTimelineDrawsReadyAndTheFailuresWithALegend() {
    String svg = SvgTimeline.render(report());
    assertTrue(svg.contains("<title>Ready</title>"), svg);
    assertTrue(svg.contains("<title>" + SvgTimeline.escape(FAILED) + "</title>"), svg);
    assertTrue(svg.contains(">Ready</text>") && svg.contains(">probe failed</text>"), "the legend names them");
    assertTrue(svg.contains("Ready at"), "the row's note says when");
  }
}
