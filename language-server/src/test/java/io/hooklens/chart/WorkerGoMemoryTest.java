package io.hooklens.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Helm's collector in the render worker runs less often, within half the memory limit, unless the user says. */
class WorkerGoMemoryTest {
  @Test
  void theWorkerThatRendersCollectsWithinHalfTheMemoryLimit() throws Exception {
    ChartLinterTest.lint(ChartLinterTest.chart("shop"), List.of(), SetValues.NONE);
    Set<Long> workers = RenderWorkerIdleTest.workers();
    assertFalse(workers.isEmpty(), "a worker rendered the chart");
    long pid = workers.iterator().next();
    List<String> environment = Arrays.asList(Files.readString(Path.of("/proc", String.valueOf(pid), "environ"),
        StandardCharsets.ISO_8859_1).split("\0"));
    String gogc = System.getenv("GOGC");
    String limit = System.getenv("GOMEMLIMIT");
    assertTrue(environment.contains("GOGC=" + (gogc != null ? gogc : "400")), environment.toString());
    assertTrue(environment.contains("GOMEMLIMIT="
        + (limit != null ? limit : RenderLimits.current().memoryMiB() / 2 + "MiB")), environment.toString());
  }

  @Test
  void theUsersOwnSettingsStand() {
    Map<String, String> environment = new HashMap<>(Map.of("GOGC", "50", "GOMEMLIMIT", "2GiB"));
    WorkerProcess.goMemory(environment, new RenderLimits(60, 1000, 64));
    assertEquals(Map.of("GOGC", "50", "GOMEMLIMIT", "2GiB"), environment);
    Map<String, String> unset = new HashMap<>();
    WorkerProcess.goMemory(unset, new RenderLimits(60, 1000, 64));
    assertEquals(Map.of("GOGC", "400", "GOMEMLIMIT", "500MiB"), unset);
  }
}
