package io.hooklens;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Time assertions for runs of real processes. A deadline the node keeps never fires early, so a mark may not
 * come before its expected time; how late it may come depends on the machine, so the upper bound is a slack
 * that grows with what a no-op sandboxed process costs here, measured once per test JVM. The bound still
 * tells the kubelet's cases apart (a SIGKILL at the grace deadline, not two seconds later) on an idle
 * machine and on one whose cores are all busy.
 */
public final class Timing {
  /** Marks are taken a few steps apart from the timers that cause them. */
  private static final long EARLY_MS = 20;
  private static final long MIN_SLACK_MS = 1000;
  private static final long SLACK_PER_NOOP = 10;

  private Timing() {}

  private static final class Measured {
    static final long NOOP_MS = measureNoop();
    static final long SLACK_MS = Math.max(MIN_SLACK_MS, SLACK_PER_NOOP * NOOP_MS);
  }

  /** How late a mark may be, in milliseconds. */
  public static long slackMs() {
    return Measured.SLACK_MS;
  }

  /** {@code actualMs} is at {@code expectedMs}, or later by no more than the slack. */
  public static void assertAt(long expectedMs, long actualMs, String what) {
    assertTrue(actualMs >= expectedMs - EARLY_MS && actualMs <= expectedMs + slackMs(),
        what + ": " + actualMs + " ms, expected " + expectedMs + " ms (up to " + slackMs()
            + " ms later on this machine, where a no-op sandboxed process takes " + Measured.NOOP_MS + " ms)");
  }

  /**
   * The median of five runs of {@code true}, inside bubblewrap when it is installed (as hooks run), else as
   * a plain process.
   */
  private static long measureNoop() {
    List<String> command = bubblewrap()
        ? List.of("bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid",
            "--unshare-net", "--die-with-parent", "true")
        : List.of("true");
    List<Long> runs = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      long start = System.nanoTime();
      try {
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start().waitFor(30, TimeUnit.SECONDS);
      } catch (IOException e) {
        return MIN_SLACK_MS;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return MIN_SLACK_MS;
      }
      runs.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    }
    return runs.stream().sorted().toList().get(runs.size() / 2);
  }

  private static boolean bubblewrap() {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
      if (new java.io.File(dir, "bwrap").canExecute()) {
        return true;
      }
    }
    return false;
  }
}
