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
 * @param readyMs when it first became Ready, for a container whose startup or readiness probes decide that; null
 *     for one that is Ready once Running, or never was
 * @param probes what its probes decided, in order: Ready, not Ready, each failure and a kill they caused
 */
public record ContainerResult(String name, String command, Long startedMs, Long runningMs, Long exitedMs,
    Integer exitCode, String reason, int restartCount, List<Attempt> attempts, String output,
    long outputDroppedBytes, Long readyMs, List<ProbeMark> probes) {

  /** A container seen only through the API: one run, no output, Ready when its status said so. */
  public static ContainerResult seen(String name, String command, Long runningMs, Long readyMs, Long exitedMs,
      Integer exitCode, String reason) {
    return new ContainerResult(name, command, null, runningMs, exitedMs, exitCode, reason, 0,
        List.of(new Attempt(0, null, runningMs, exitedMs, exitCode, reason, null, "", 0)), "", 0, readyMs,
        readyMs == null ? List.of() : List.of(new ProbeMark(readyMs, ProbeMark.READY, "")));
  }

  /**
   * A point where a probe decided something.
   *
   * @param kind {@code Ready}, {@code NotReady}, {@code Unhealthy} (a probe failed) or {@code Killing} (failed
   *     liveness or startup probes had the container killed)
   * @param message the event's message: {@code Readiness probe failed: ...}, {@code Container app failed liveness
   *     probe, will be restarted}; empty for Ready and NotReady
   */
  public record ProbeMark(long atMs, String kind, String message) {
    public static final String READY = "Ready";
    public static final String NOT_READY = "NotReady";
    public static final String UNHEALTHY = "Unhealthy";
    public static final String KILLING = "Killing";
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
