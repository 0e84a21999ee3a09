package io.hooklens.run.report;

import java.util.List;

/**
 * A hook as it ran.
 *
 * @param hook {@code postStart} or {@code preStop}
 * @param handler what it runs, as planned
 * @param status {@code succeeded}, {@code failed}, {@code cut-off} (still running when the grace period
 *     ended), {@code running} (had not returned when the runner stopped waiting), {@code not-run}, or
 *     {@code unknown} (its end is not visible through the API)
 * @param message why it failed, as the kubelet would say
 * @param output the end of what it printed (at most 64 KiB)
 * @param outputDroppedBytes how many bytes it printed before {@code output}, which were not kept
 * @param predicted the static findings on this hook's handler
 * @param attempt the restart count of the container's run it ran for: 0 for the first run
 */
public record HookResult(String container, String hook, String handler, Long startMs, Long endMs, String status,
    String message, String output, long outputDroppedBytes, List<Prediction> predicted, int attempt) {
  public Long durationMs() {
    return startMs == null || endMs == null ? null : endMs - startMs;
  }
}
