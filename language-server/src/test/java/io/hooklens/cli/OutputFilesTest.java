package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files the commands write besides standard output: lint's report and run's timeline. */
class OutputFilesTest {
  @TempDir
  Path dir;

  private Path manifest() throws Exception {
    Path f = dir.resolve("pod.yaml");
    Files.writeString(f, LintCommandTest.OVER_BUDGET);
    return f;
  }

  @Test
  void aReportThatCannotBeWrittenIsOneLineAndExitTwo() throws Exception {
    Path pod = manifest();
    Path emptyDir = Files.createDirectory(dir.resolve("reports"));
    List<Path> targets = List.of(dir.resolve("no/such/r.txt"), emptyDir, pod.resolve("r.txt"));
    for (Path target : targets) {
      CliRun r = CliRun.of("lint", "-o", target.toString(), pod.toString());
      assertEquals(2, r.exit(), r.err());
      assertEquals("", r.out());
      List<String> lines = r.err().lines().toList();
      assertEquals(1, lines.size(), r.err());
      assertTrue(lines.get(0).startsWith("hooklens: cannot write the report to " + target + ": "), r.err());
    }
    assertTrue(Files.isDirectory(emptyDir), "a directory is never replaced by the report");
    try (var files = Files.list(dir.getParent())) {
      assertTrue(files.noneMatch(p -> p.getFileName().toString().startsWith(".hooklens-")), "no temporary file");
    }
  }

  @Test
  void aNewReportGetsTheModeOfTheUmaskAndAnExistingOneKeepsItsMode() throws Exception {
    Path pod = manifest();
    // A file created the ordinary way gets 0666 less the umask, as the report should.
    Path ordinary = Files.createFile(dir.resolve("ordinary"));
    String expected = PosixFilePermissions.toString(Files.getPosixFilePermissions(ordinary));
    Path fresh = dir.resolve("fresh.txt");
    assertEquals(1, CliRun.of("lint", "-o", fresh.toString(), pod.toString()).exit());
    assertEquals(expected, PosixFilePermissions.toString(Files.getPosixFilePermissions(fresh)));

    Path existing = Files.writeString(dir.resolve("existing.txt"), "old");
    Files.setPosixFilePermissions(existing, PosixFilePermissions.fromString("rw-r-----"));
    assertEquals(1, CliRun.of("lint", "-o", existing.toString(), pod.toString()).exit());
    assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(existing)));
    assertTrue(Files.readString(existing).contains("HL401"));
  }

  @Test
  void aTimelineThatCannotBeWrittenIsRefusedBeforeAnythingRuns() throws Exception {
    Path target = dir.resolve("no/such/t.svg");
    CliRun r = CliRun.of("run", "--timeline", target.toString(), manifest().toString());
    assertEquals(2, r.exit(), r.err());
    assertEquals(List.of("hooklens: cannot write the timeline to " + target + ": no such directory "
        + target.getParent()), r.err().lines().toList());
    assertFalse(r.err().contains("will start"), "no plan is offered: " + r.err());
  }
}
