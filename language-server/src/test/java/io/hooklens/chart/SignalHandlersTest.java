package io.hooklens.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.TestPaths;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Helm's native code takes over SIGTERM and SIGINT when it renders; a JVM that has rendered a chart
 * must still end on SIGTERM (a CI timeout) as any other. Checked in a JVM of its own, which renders and
 * then waits to be terminated.
 */
@Tag("slow")
class SignalHandlersTest {
  @Test
  void aJvmThatRenderedAChartStillEndsOnSigterm() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p = new ProcessBuilder(List.of(java.toString(), "-cp", System.getProperty("java.class.path"),
        RenderThenWait.class.getName(), ChartLinterTest.chart("shop").toString()))
        .redirectErrorStream(true)
        .start();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      do {
        line = out.readLine();
      } while (line != null && !line.equals("rendered"));
      assertEquals("rendered", line, "the chart rendered");
      p.destroy();
      assertTrue(p.waitFor(20, TimeUnit.SECONDS), "the JVM ended on SIGTERM");
      assertEquals(143, p.exitValue(), "ended by the JVM's own SIGTERM handling");
    } finally {
      p.destroyForcibly();
    }
  }
}
