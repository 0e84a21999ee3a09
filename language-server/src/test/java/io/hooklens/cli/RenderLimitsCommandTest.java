package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.hooklens.RunawayCharts;
import io.hooklens.TestPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A chart whose rendering runs away costs the run a bounded time and memory, an HL005 finding and nothing else:
 * the CLI goes on with the next chart, exits with 1 as for any error finding, and leaves no process or file
 * behind, also when it is killed itself.
 */
@Tag("slow")
class RenderLimitsCommandTest {
  private static final long MIB = 1024 * 1024;
  private static final String HL005 = ":1:1: error HL005 Helm cannot render the chart with these values, so what it "
      + "would install with them is not checked: Helm rendering stopped: ";

  @TempDir
  Path dir;

  /** The CLI in a JVM of its own, whose temporary files (the render worker's folder among them) go to {@code tmp}. */
  private Process cli(Path tmp, List<String> jvmOptions, String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Djava.io.tmpdir=" + tmp));
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
    command.addAll(List.of(args));
    return new ProcessBuilder(command).redirectOutput(dir.resolve("out.txt").toFile())
        .redirectError(dir.resolve("err.txt").toFile()).start();
  }

  @Test
  void aChartThatGrowsIsStoppedUnderTheMemoryLimitAndNothingIsLeftBehind() throws Exception {
    Path chart = RunawayCharts.write(dir, "grows", RunawayCharts.GROWS);
    Path tmp = Files.createDirectories(dir.resolve("tmp"));
    long limit = 512 * MIB;
    // The CLI's own JVM, and how far the worker gets between two looks at its memory.
    long bound = limit + 512 * MIB;
    Process p = cli(tmp, List.of("-D" + RunawayCharts.MEMORY + "=512"), "lint", chart.toString());
    long peak = 0;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    try {
      while (p.isAlive()) {
        long rss = rss(p.toHandle()) + p.toHandle().descendants().mapToLong(RenderLimitsCommandTest::rss).sum();
        peak = Math.max(peak, rss);
        if (peak > bound || System.nanoTime() > deadline) {
          fail("the CLI and its children reached " + peak / MIB + " MiB, more than " + bound / MIB + " MiB, or ran"
              + " for 2 minutes");
        }
        Thread.sleep(10);
      }
    } finally {
      p.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
    String out = Files.readString(dir.resolve("out.txt"));
    assertEquals(1, p.exitValue(), out + Files.readString(dir.resolve("err.txt")));
    assertTrue(out.contains(chart.resolve("Chart.yaml") + HL005 + "it used more than 512 MiB of memory"), out);
    assertEquals(List.of(), workerProcesses(tmp), "no render worker outlives the CLI");
    assertEquals(List.of(), list(tmp), "and no file of either");
  }

  @Test
  void aRenderStoppedByItsTimeLimitDoesNotStopTheRun() throws Exception {
    Path spins = RunawayCharts.write(dir, "spins", RunawayCharts.SPINS);
    Path shop = TestPaths.testResources().resolve("charts/shop");
    CliRun r = RunawayCharts.withProperties(Map.of(RunawayCharts.TIMEOUT, "2"),
        () -> CliRun.of("lint", spins.toString(), shop.toString()));
    assertEquals(1, r.exit(), r.err());
    assertTrue(r.out().contains(spins.resolve("Chart.yaml") + HL005 + "it ran longer than 2 s"), r.out());
    assertTrue(r.out().contains(shop.resolve("templates/deployment.yaml") + ":26:13: warning HL401"), r.out());
  }

  @Test
  void theWorkerEndsWithTheCliInTheMiddleOfARender() throws Exception {
    Path spins = RunawayCharts.write(dir, "spins", RunawayCharts.SPINS);
    Path tmp = Files.createDirectories(dir.resolve("tmp"));
    Process p = cli(tmp, List.of(), "lint", spins.toString());
    try {
      // Helm's log file appears in the worker's folder when a render starts.
      waitFor(() -> {
        try (Stream<Path> files = Files.walk(tmp)) {
          return files.anyMatch(f -> f.getFileName().toString().endsWith(".log"));
        }
      }, "a render in the worker");
      assertEquals(1, workerProcesses(tmp).size());
      p.destroyForcibly();
      waitFor(() -> workerProcesses(tmp).isEmpty(), "the worker to end");
      // The CLI, killed, leaves its copy of the chart; the worker leaves nothing.
      assertEquals(List.of(), workerFolders(tmp));
    } finally {
      p.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
  }

  private interface Condition {
    boolean holds() throws IOException;
  }

  private static void waitFor(Condition c, String what) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!c.holds()) {
      if (System.nanoTime() > deadline) {
        fail("waited a minute for " + what);
      }
      Thread.sleep(20);
    }
  }

  private static List<Path> workerFolders(Path tmp) throws IOException {
    return list(tmp).stream().filter(p -> p.getFileName().toString().startsWith("hooklens-helm-worker-")).toList();
  }

  private static List<Path> list(Path folder) throws IOException {
    try (Stream<Path> files = Files.list(folder)) {
      return files.toList();
    }
  }

  /** Render workers whose folder is under {@code tmp}, by their command lines. */
  private static List<String> workerProcesses(Path tmp) throws IOException {
    List<String> found = new ArrayList<>();
    try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
      for (Path proc : processes.filter(q -> q.getFileName().toString().matches("\\d+")).toList()) {
        try {
          String cmdline = Files.readString(proc.resolve("cmdline")).replace('\0', ' ');
          if (cmdline.contains("RenderWorker") && cmdline.contains(tmp.toString())) {
            found.add(proc.getFileName() + " " + cmdline);
          }
        } catch (IOException e) {
          // Gone meanwhile.
        }
      }
    }
    return found;
  }

  private static long rss(ProcessHandle h) {
    try (Stream<String> lines = Files.lines(Path.of("/proc", String.valueOf(h.pid()), "status"))) {
      return lines.filter(l -> l.startsWith("VmRSS:")).findFirst()
          .map(l -> Long.parseLong(l.replaceAll("\\D", "")) * 1024).orElse(0L);
    } catch (IOException | java.io.UncheckedIOException e) {
      return 0;
    }
  }
}
