package io.hooklens.run.process;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Kills what a JVM's run left running once that JVM has ended, however it ended. The parent-death signals the
 * run's processes get are armed a moment after each starts (bubblewrap arms {@code --die-with-parent} inside its
 * new PID namespace, where no parent can be checked): a JVM killed with SIGKILL in that moment leaves the
 * process running. So a shell of its own session, outside every run, holds the read end of a pipe whose write end
 * only this JVM has; the kernel closes it when the JVM dies, and the shell then kills every process whose
 * environment carries the marker, until none is left.
 */
public final class Reaper {
  // After the JVM: each round kills what carries the marker; a process forked meanwhile is found in the next.
  private static final String SCRIPT = """
      read -r _
      n=0
      while [ $n -lt 100 ]; do
        left=$(grep -lzs -- "^$1" /proc/[0-9]*/environ)
        [ -z "$left" ] && exit 0
        for f in $left; do p=${f#/proc/}; kill -KILL "${p%/environ}" 2>/dev/null; done
        n=$((n+1))
        sleep 0.1
      done
      """;
  // Kept reachable for the JVM's life: an unreachable process's pipe would be closed by its cleaner, too early.
  private static final Map<String, Process> WATCHING = new HashMap<>();

  private Reaper() {}

  /**
   * Makes sure that, after this JVM, every process whose environment holds {@code variable=prefix…} is killed.
   *
   * @param prefix letters, digits, {@code -} and {@code _} only
   */
  public static synchronized void watch(String variable, String prefix) throws IOException {
    String marker = variable + "=" + prefix;
    if (!marker.matches("[A-Za-z0-9_=-]+")) {
      throw new IllegalArgumentException("not a marker: " + marker);
    }
    Process watcher = WATCHING.get(marker);
    if (watcher != null && watcher.isAlive()) {
      return;
    }
    ProcessBuilder builder = new ProcessBuilder(List.of("setsid", "/bin/sh", "-c", SCRIPT, "hooklens-reaper", marker))
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
    // Its own environment must not hold the marker, or it would find itself.
    builder.environment().clear();
    builder.environment().put("PATH", "/usr/bin:/bin:/usr/sbin:/sbin");
    WATCHING.put(marker, builder.start());
  }
}
