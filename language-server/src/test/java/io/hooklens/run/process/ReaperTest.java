package io.hooklens.run.process;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** After a JVM killed with SIGKILL, what carries its marker is killed too, and nothing else. */
class ReaperTest {
  static final String VARIABLE = "HOOKLENS_REAPER_TEST";

  /** A JVM that watches {@code args[0]}, starts a marked and an unmarked sleep in sessions of their own, and waits. */
  public static final class Child {
    public static void main(String[] args) throws Exception {
      Reaper.watch(VARIABLE, args[0]);
      System.out.println(sleep(args[0] + "1") + " " + sleep("other-" + args[0]));
      System.out.flush();
      Thread.sleep(Long.MAX_VALUE);
    }

    private static long sleep(String marker) throws Exception {
      ProcessBuilder builder = new ProcessBuilder("setsid", "sleep", "300");
      builder.environment().put(VARIABLE, marker);
      return builder.start().pid();
    }
  }

  @Test
  void sigkillOfTheJvmEndsWhatCarriesItsMarkerAndNothingElse() throws Exception {
    String prefix = ProcessHandle.current().pid() + "-" + System.nanoTime() + "-";
    Process jvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
        System.getProperty("java.class.path"), Child.class.getName(), prefix).redirectErrorStream(true).start();
    long marked = -1;
    long other = -1;
    try (BufferedReader out = new BufferedReader(new InputStreamReader(jvm.getInputStream(),
        StandardCharsets.UTF_8))) {
      String[] pids = out.readLine().split(" ");
      marked = Long.parseLong(pids[0]);
      other = Long.parseLong(pids[1]);
      assertTrue(alive(marked), "the marked sleep runs while its JVM does");
      jvm.destroyForcibly();
      assertTrue(jvm.waitFor(30, TimeUnit.SECONDS));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (alive(marked) && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertFalse(alive(marked), "the marked sleep outlived its JVM");
      assertTrue(alive(other), "a process without the marker was killed");
    } finally {
      jvm.destroyForcibly();
      for (long pid : new long[] {marked, other}) {
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
      }
    }
  }

  private static boolean alive(long pid) {
    Optional<ProcessHandle> process = ProcessHandle.of(pid);
    return process.isPresent() && process.get().isAlive();
  }
}
