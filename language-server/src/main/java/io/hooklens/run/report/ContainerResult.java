package io.hooklens.run.report;

import java.util.List;

/**
 * A container of a step's pod: its first run's start, how its last run ended, and every run.
 *
 * @param command its command line as planned
 * @param startedMs when its first run's process started
 * @param runningMs when its first run became Running (after its postStart returned)
 * @param exitedMs when its last run exited
 * @param exitCode its last run's exit code
 * @param reason its last run's terminated reason ({@code Completed}, {@code Error}, {@code StartError})
 * @param restartCount how often it was restarted, as its status counts: the runs after the first
 * @param attempts every run, in order
 * @param output the end of what it printed over all its runs (at most 64 KiB)
 * @param outputDroppedBytes how many bytes it printed before {@code output}, which were not kept
 */
public record ContainerResult(String name, String command, Long startedMs, Long runningMs, Long exitedMs,
    Integer exitCode, String reason, int restartCount, List<Attempt> attempts, String output,
    long outputDroppedBytes) {

  /** A container seen only through the API: one run, no output. */
  public static ContainerResult seen(String name, String command, Long runningMs, Long exitedMs, Integer exitCode,
      String reason) {
    return new ContainerResult(name, command, null, runningMs, exitedMs, exitCode, reason, 0,
        List.of(new Attempt(0, null, runningMs, exitedMs, exitCode, reason, null, "", 0)), "", 0);
  }

  /**
   * One run of the container.
   *
   * @param restartCount the container's restart count during this run: 0 for the first
   * @param backOffMs how long it waited after this run's exit before the next run started; null for the last run
   * @param output the end of what this run printed (at most 64 KiB), after {@code outputDroppedBytes} not kept
   */
  public record Attempt(int restartCount, Long startedMs, Long runningMs, Long exitedMs, Integer exitCode,
      String reason, Long backOffMs, String output, long outputDroppedBytes) {}
}
