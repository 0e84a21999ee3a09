package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.ChildJvm;
import io.hooklens.TestPaths;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lint of many charts on several jobs renders in several workers, and none of them outlives the CLI: not when it
 * ends, and not when Ctrl-C stops it in the middle. Each CLI runs in a JVM of its own whose temporary folder is the
 * test's, so that its workers, which take a folder there, are known by their command line.
 */
@Tag("slow")
class LintJobsProcessTest {
  private static final int CHARTS = 12;

  @TempDir
  Path dir;

  @Test
  void noRenderWorkerOutlivesALintOnFourJobs() throws Exception {
    Path tmp = Files.createDirectory(dir.resolve("tmp"));
    ChildJvm r = ChildJvm.run(dir, List.of("-Djava.io.tmpdir=" + tmp), Duration.ofMinutes(10), Main.class, "lint",
        "--jobs", "4", "-f", "github", charts().toString());
    assertEquals(1, r.exit(), r.err());
    assertTrue(r.out().contains("shop-11/"), r.out());
    assertNoneLeft(tmp);
  }

  @Test
  void ctrlCStopsTheLintAndEveryRenderWorker() throws Exception {
    Path tmp = Files.createDirectory(dir.resolve("tmp"));
    Path charts = charts();
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Djava.io.tmpdir=" + tmp, "-cp", System.getProperty("java.class.path"), Main.class.getName(), "lint",
        "--jobs", "4", charts.toString()));
    Process p = new ProcessBuilder(command).redirectOutput(dir.resolve("out.txt").toFile())
        .redirectError(dir.resolve("err.txt").toFile()).start();
    try {
      // Stopped once two workers render: a busy machine takes seconds to start them.
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
      while (workers(tmp).size() < 2 && p.isAlive() && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertTrue(workers(tmp).size() >= 2, "two workers rendered; " + Files.readString(dir.resolve("err.txt")));
      assertEquals(0, new ProcessBuilder("kill", "-INT", String.valueOf(p.pid())).start().waitFor());
      assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the CLI ended on SIGINT");
      assertEquals(130, p.exitValue(), "ended by SIGINT");
      assertNoneLeft(tmp);
    } finally {
      p.destroyForcibly();
    }
  }

  /** Copies of a chart with hooks, each under a name of its own. */
  private Path charts() throws IOException {
    Path charts = Files.createDirectory(dir.resolve("charts"));
    for (int i = 0; i < CHARTS; i++) {
      Path copy = TestPaths.chartCopy("shop", charts);
      Files.move(copy, charts.resolve("shop-%02d".formatted(i)));
    }
    return charts;
  }

  /**
   * No process runs with the temporary folder in its command line, and no worker folder is left in it. A worker
   * whose parent is killed ends when its standard input does, within moments: a busy machine gets a while.
   */
  private static void assertNoneLeft(Path tmp) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!workers(tmp).isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    assertEquals(List.of(), workers(tmp), "render workers left running");
    try (Stream<Path> left = Files.list(tmp)) {
      assertEquals(List.of(), left.filter(f -> f.getFileName().toString().startsWith("hooklens-helm-worker-")).toList());
    }
  }

  /** The processes whose command line names the folder, by pid and command line. */
  private static List<String> workers(Path tmp) throws IOException {
    List<String> found = new ArrayList<>();
    try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
      for (Path proc : processes.filter(d -> d.getFileName().toString().matches("\\d+")).toList()) {
        try {
          String cmdline = Files.readString(proc.resolve("cmdline"), StandardCharsets.ISO_8859_1).replace('\0', ' ');
          if (cmdline.contains(tmp + "/hooklens-helm-worker-")) {
            found.add(proc.getFileName() + " " + cmdline.strip());
          }
        } catch (IOException e) {
          // Gone meanwhile.
        }
      }
    }
    return found;
  }
}
