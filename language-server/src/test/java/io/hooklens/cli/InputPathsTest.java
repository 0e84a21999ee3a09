package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which paths the commands read: links followed once, loops named, FIFOs and devices never opened. */
class InputPathsTest {
  /** Far longer than refusing a path takes, short enough that a blocked read fails the test soon. */
  private static final long TIMEOUT_SECONDS = 60;

  @TempDir
  Path dir;

  @Test
  void aFolderHoldingOnlyALinkToAManifestLintsItThroughTheLink() throws Exception {
    Path real = write("elsewhere/pod.yaml", LintCommandTest.OVER_BUDGET);
    Path walked = Files.createDirectories(dir.resolve("walked"));
    Path link = Files.createSymbolicLink(walked.resolve("pod.yaml"), real);

    CliRun r = CliRun.of("lint", "--color", "never", walked.toString());

    assertEquals(1, r.exit(), r.err());
    assertTrue(r.out().contains(link + ":11:9: warning HL401"), r.out());
  }

  @Test
  void linkedFoldersAreWalkedAndEachFileIsLintedOnceUnderItsOwnName() throws Exception {
    Path walked = Files.createDirectories(dir.resolve("walked"));
    Path own = write("walked/base/pod.yaml", LintCommandTest.OVER_BUDGET);
    Files.createSymbolicLink(walked.resolve("again"), walked.resolve("base"));
    Files.createSymbolicLink(walked.resolve("also.yaml"), own);
    Files.createSymbolicLink(walked.resolve("base/up"), walked);
    write("shared/ok.yaml", LintCommandTest.CLEAN);
    Files.createSymbolicLink(walked.resolve("shared"), dir.resolve("shared"));

    CliRun r = CliRun.of("lint", "--format", "json", walked.toString());

    assertEquals(1, r.exit(), r.err());
    assertEquals("", r.err());
    JsonNode root = new ObjectMapper().readTree(r.out());
    assertEquals(2, root.at("/summary/files").asInt(), r.out());
    List<String> files = new ArrayList<>();
    root.at("/findings").forEach(f -> files.add(f.get("file").asText()));
    assertEquals(List.of(own.toString()), files, "the HL401 of base/pod.yaml, once");
  }

  @Test
  void aSymlinkLoopIsCalledALoop() throws Exception {
    Path a = dir.resolve("a.yaml");
    Files.createSymbolicLink(a, dir.resolve("b.yaml"));
    Files.createSymbolicLink(dir.resolve("b.yaml"), a);
    write("walked/pod.yaml", LintCommandTest.CLEAN);
    Files.createSymbolicLink(dir.resolve("walked/loop.yaml"), dir.resolve("walked/loop.yaml"));

    CliRun given = CliRun.of("lint", a.toString());
    assertEquals(2, given.exit());
    assertEquals(List.of("hooklens: " + a + ": symlink loop"), given.err().lines().toList());

    CliRun walkedRun = CliRun.of("lint", "--color", "never", dir.resolve("walked").toString());
    assertEquals(0, walkedRun.exit(), walkedRun.err());
    assertEquals(List.of("hooklens: " + dir.resolve("walked/loop.yaml") + ": symlink loop, skipped"),
        walkedRun.err().lines().toList());
    assertTrue(walkedRun.out().contains("No problems in 1 file."), walkedRun.out());
  }

  @Test
  void aFifoGivenAsPathIsRefusedAndInAWalkSkippedWithANote() throws Exception {
    Path fifo = mkfifo(dir.resolve("pipe.yaml"));

    CliRun lint = within(fifo, "lint", fifo.toString());
    assertEquals(2, lint.exit());
    assertEquals(List.of("hooklens: " + fifo + ": not a regular file (a FIFO)"), lint.err().lines().toList());
    CliRun hooks = within(fifo, "hooks", fifo.toString());
    assertEquals(2, hooks.exit());
    assertTrue(hooks.err().contains(fifo + ": not a regular file (a FIFO)"), hooks.err());

    write("pod.yaml", LintCommandTest.CLEAN);
    CliRun walk = within(fifo, "lint", "--color", "never", dir.toString());
    assertEquals(0, walk.exit(), walk.err());
    assertEquals(List.of("hooklens: " + fifo + ": not a regular file (a FIFO), skipped"), walk.err().lines().toList());
    assertTrue(walk.out().contains("No problems in 1 file."), walk.out());
  }

  @Test
  void aDeviceGivenAsPathIsRefused() {
    CliRun r = CliRun.of("lint", "/dev/null");
    assertEquals(2, r.exit());
    assertEquals(List.of("hooklens: /dev/null: not a regular file (a character device)"), r.err().lines().toList());
    assertFalse(r.out().contains("HL"), r.out());
  }

  /**
   * Runs the command line, failing if it does not end in time; a read blocked on the FIFO is then released
   * by opening its other end, so that the test ends either way.
   */
  private static CliRun within(Path fifo, String... args) throws Exception {
    CompletableFuture<CliRun> run = CompletableFuture.supplyAsync(() -> CliRun.of(args));
    try {
      return run.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      try (OutputStream release = Files.newOutputStream(fifo)) {
        release.flush();
      }
      run.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      return fail("hooklens " + String.join(" ", args) + " blocked on the FIFO");
    }
  }

  private static Path mkfifo(Path p) throws Exception {
    Process mk = new ProcessBuilder("mkfifo", p.toString()).inheritIO().start();
    assertEquals(0, mk.waitFor(), "mkfifo " + p);
    return p;
  }

  private Path write(String name, String text) throws Exception {
    Path p = dir.resolve(name);
    Files.createDirectories(p.getParent());
    return Files.writeString(p, text);
  }
}
