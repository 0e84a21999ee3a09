package io.hooklens.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.RunawayCharts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The render worker holds a JVM and Helm's memory: a worker without a render for
 * {@code hooklens.helm.idleSeconds} ends, and the next render starts another that renders as the first did.
 */
class RenderWorkerIdleTest {
  /**
   * The render workers this JVM started that still run, by their command line: the JDK gives no arguments of a
   * command line as long as the worker's class path.
   */
  static Set<Long> workers() {
    return ProcessHandle.current().children().filter(p -> commandLine(p).contains(RenderWorker.class.getName()))
        .map(ProcessHandle::pid).collect(Collectors.toSet());
  }

  private static String commandLine(ProcessHandle p) {
    try {
      return Files.readString(Path.of("/proc", String.valueOf(p.pid()), "cmdline"), StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      return "";
    }
  }

  @Test
  void anIdleWorkerEndsAndTheNextRenderStartsAnother() throws Exception {
    List<ChartLinterTest.Seen> first = ChartLinterTest.lint(ChartLinterTest.chart("shop"), List.of(), SetValues.NONE);
    Set<Long> before = workers();
    assertFalse(before.isEmpty(), "a worker rendered the chart");
    // The worker is asked for again, as a directory walk does on meeting a chart, and then left idle.
    RunawayCharts.withProperties(Map.of(RenderLimits.IDLE, "1"), () -> {
      ChartRenderer.prepare();
      return null;
    });
    assertEquals(before, workers(), "the worker that rendered is reused");
    // A second's idle limit; a busy machine may take a while to stop the worker and reap it.
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (!workers().isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    assertEquals(Set.of(), workers(), "the idle worker still runs");
    assertEquals(first, ChartLinterTest.lint(ChartLinterTest.chart("shop"), List.of(), SetValues.NONE));
    Set<Long> after = workers();
    assertFalse(after.isEmpty(), "a new worker rendered the chart");
    assertTrue(after.stream().noneMatch(before::contains), after + " and " + before);
  }
}
