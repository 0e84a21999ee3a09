package io.hooklens.core.model;

/**
 * How the kubelet stops a container (kuberuntime's {@code killContainer}), in seconds from the stop: the grace
 * period counts from there; preStop runs first and is overtaken when the grace period ends; then SIGTERM, and
 * SIGKILL once what is left of the grace period is over, but never sooner than
 * {@link #MINIMUM_AFTER_SIGTERM_SECONDS} after SIGTERM. The budget rules, hover, inlay hints and the runner's
 * node all read the stop this way.
 */
public final class Termination {
  /** Kubernetes' default {@code terminationGracePeriodSeconds}. */
  public static final long DEFAULT_GRACE_SECONDS = 30;
  /** kuberuntime's {@code minimumGracePeriodInSeconds}: what the container gets after SIGTERM at the least. */
  public static final long MINIMUM_AFTER_SIGTERM_SECONDS = 2;

  private Termination() {}

  /** When SIGTERM comes: as preStop ends, or when the grace period is over and overtakes it. */
  public static double sigterm(long graceSeconds, double preStopSeconds) {
    return Math.min(graceSeconds, preStopSeconds);
  }

  /** When SIGKILL comes, if the app still runs, for SIGTERM at {@code sigterm}. */
  public static double sigkill(long graceSeconds, double sigterm) {
    return Math.max(graceSeconds, sigterm + MINIMUM_AFTER_SIGTERM_SECONDS);
  }

  /** How long the kubelet waits after SIGTERM when {@code graceLeft} seconds of the grace period remain. */
  public static long stopTimeout(long graceLeft) {
    return Math.max(graceLeft, MINIMUM_AFTER_SIGTERM_SECONDS);
  }
}
