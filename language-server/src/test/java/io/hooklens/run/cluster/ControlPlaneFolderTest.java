package io.hooklens.run.cluster;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The folders of control planes whose JVM was SIGKILLed are removed by the next start; no other folder is. */
@Tag("slow")
class ControlPlaneFolderTest {
  @TempDir
  Path tmp;

  @Test
  void aFolderLeftByADeadRunGoesAndALiveRunsAndOthersStay() throws Exception {
    Process ended = new ProcessBuilder("true").start();
    ended.waitFor();
    long dead = ended.pid();
    Path stale = Files.createDirectories(tmp.resolve("hooklens-envtest-" + dead + "-123/etcd"));
    Files.writeString(stale.resolve("db"), "x");
    Path live = Files.createDirectory(tmp.resolve("hooklens-envtest-" + ProcessHandle.current().pid() + "-456"));
    Path other = Files.createDirectory(tmp.resolve("hooklens-envtest-notes"));
    Path link = Files.createSymbolicLink(tmp.resolve("hooklens-envtest-" + dead + "-789"), other);
    ControlPlane.sweepStale(tmp);
    assertFalse(Files.exists(stale.getParent()), "the dead run's folder");
    assertTrue(Files.isDirectory(live), "a live run's folder");
    assertTrue(Files.isDirectory(other), "a folder not named by a run");
    assertTrue(Files.isSymbolicLink(link), "a link is never followed nor removed");
  }
}
