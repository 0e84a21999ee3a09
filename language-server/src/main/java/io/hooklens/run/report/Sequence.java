package io.hooklens.run.report;

import java.util.List;

/**
 * Hook objects run one after another by a controller: a Helm operation ({@code helm}: its events and the
 * release step between them) or a DeploymentConfig rollout ({@code rollout}: its pre, mid and post hooks and
 * the deployer's own steps). Times are milliseconds since the sequence began.
 *
 * @param kind {@code helm} or {@code rollout}
 * @param name what ran: {@code install}, {@code pre-install}, or {@code DeploymentConfig/web}
 * @param error what stopped it, in Helm's or the deployer's words; null when it went through
 */
public record Sequence(String kind, String name, String namespace, List<Item> items, String error, long endMs,
    List<Verdict> verdicts, List<String> notes) {

  /** Whether it went through and every verdict on it is good: a hook that failed under Ignore fails the run. */
  public boolean succeeded() {
    return error == null && verdicts.stream().allMatch(Verdict::ok);
  }

  /** How it ended, in one line that agrees with {@link #succeeded()}. */
  public String outcome() {
    if (error != null) {
      return "failed: " + error;
    }
    long failed = verdicts.stream().filter(v -> !v.ok()).count();
    String after = " after " + Verdicts.seconds(endMs);
    return failed == 0 ? "done" + after : "completed" + after + ", as on a cluster, but " + (failed == 1 ? "a hook"
        : failed + " hooks") + " failed: the run fails";
  }

  /**
   * One object or step of a sequence.
   *
   * @param group the Helm event ({@code pre-install}, ...) or {@code release}; the rollout phase ({@code pre},
   *     {@code mid}, {@code post}), or {@code deployer} for the deployer's own steps
   * @param kind {@code hook}, {@code release}, {@code scale}, {@code rollout} or {@code controller}
   * @param what a hook object as {@code Kind/name}, or a step in words
   * @param weight a Helm hook's weight
   * @param policies a Helm hook's delete policies, or a DeploymentConfig hook's failure policy
   * @param outcome {@code succeeded}, {@code failed}, {@code timed-out}, {@code not-created}, {@code ignored}
   *     (failed under Ignore) or {@code recorded} (a step shown, not performed)
   * @param deletedBy the delete policy that deleted the hook object afterwards, with {@code deletedMs}
   * @param tags the image tags a tagImages hook would make
   * @param predicted the static findings on this object or hook
   * @param replacedExisting whether {@code before-hook-creation} deleted an object of the same name left by an
   *     earlier run before this hook was created
   */
  public record Item(String group, String kind, String what, Long weight, List<String> policies, String outcome,
      String message, long startMs, long endMs, String deletedBy, Long deletedMs, List<PodOutput> pods,
      List<String> tags, List<Prediction> predicted, boolean replacedExisting) {
    public long durationMs() {
      return endMs - startMs;
    }

    public boolean hook() {
      return "hook".equals(kind);
    }
  }

  /** A pod that ran for a hook: its phase (and reason) and each container's last exit, restarts and output. */
  public record PodOutput(String name, String phase, String reason, List<ContainerOutput> containers) {}

  /**
   * A container of such a pod; {@code exitCode} is null while it runs or waits ({@code reason} then says why it
   * waits), {@code message} says why it ended or waits; {@code output} is the end of what it printed (at most
   * 64 KiB), after {@code outputDroppedBytes} bytes that were not kept, over all its runs; {@code runs} are its ended
   * runs, each with its own exit code and output, where the node could tell them apart (empty otherwise).
   */
  public record ContainerOutput(String name, Integer exitCode, String reason, String message, int restarts,
      String output, long outputDroppedBytes, List<RunOutput> runs) {
    /** Whether every run has ended and each is known with its own output: then reports show them one by one. */
    public boolean eachRunKnown() {
      return runs.size() > 1 && runs.size() == restarts + 1;
    }
  }

  /** One ended run of a hook pod's container. */
  public record RunOutput(int restartCount, Integer exitCode, String output, long outputDroppedBytes) {}
}
