package io.hooklens.run.report;

/**
 * A signal sent to a container's main process.
 *
 * @param signal its stop signal ({@code SIGTERM} unless its image names another) or {@code SIGKILL}
 */
public record Signal(String container, String signal, long atMs) {
  /** Whether it asked the container to stop, rather than killing it. */
  public boolean stop() {
    return !"SIGKILL".equals(signal);
  }
}
