package io.hooklens.run;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * A pod as a user watching it through the API sees it: when each container was first seen running and
 * terminated (on this process's monotonic clock), its exit code, and when the pod was gone.
 */
final class PodObserver implements AutoCloseable {
  /** One container as seen through the API. */
  static final class Seen {
    Long runningNanos;
    Long readyNanos;
    Long terminatedNanos;
    Integer exitCode;
    String reason;
  }

  /** Called with a line whenever something new is seen. */
  interface Changes {
    void seen(String what);
  }

  private final Map<String, Seen> containers = new HashMap<>();
  private final Watch watch;
  private final Changes changes;
  private Long goneNanos;
  private String phase;
  private Long readyNanos;

  PodObserver(KubernetesClient client, String namespace, String name, Changes changes) {
    this.changes = changes;
    this.watch = client.pods().inNamespace(namespace).withName(name).watch(new Watcher<Pod>() {
      @Override
      public void eventReceived(Action action, Pod pod) {
        update(action, pod);
      }

      @Override
      public void onClose(WatcherException cause) {
        // The runner stops waiting at its deadlines; a closed watch only means nothing more is seen.
      }
    });
  }

  private synchronized void update(Watcher.Action action, Pod pod) {
    long now = System.nanoTime();
    if (action == Watcher.Action.DELETED) {
      if (goneNanos == null) {
        goneNanos = now;
        changes.seen("pod gone");
      }
      notifyAll();
      return;
    }
    if (pod.getStatus() == null) {
      return;
    }
    phase = pod.getStatus().getPhase();
    boolean ready = pod.getStatus().getConditions() != null && pod.getStatus().getConditions().stream()
        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    if (ready && readyNanos == null) {
      readyNanos = now;
    }
    List<ContainerStatus> statuses = pod.getStatus().getContainerStatuses();
    for (ContainerStatus status : statuses == null ? List.<ContainerStatus>of() : statuses) {
      Seen seen = containers.computeIfAbsent(status.getName(), n -> new Seen());
      if (status.getState() == null) {
        continue;
      }
      if (status.getState().getRunning() != null && seen.runningNanos == null && seen.terminatedNanos == null) {
        seen.runningNanos = now;
        changes.seen("container \"" + status.getName() + "\" Running");
      }
      if (Boolean.TRUE.equals(status.getReady()) && seen.readyNanos == null) {
        seen.readyNanos = now;
      }
      if (status.getState().getTerminated() != null && seen.terminatedNanos == null) {
        seen.terminatedNanos = now;
        seen.exitCode = status.getState().getTerminated().getExitCode();
        seen.reason = status.getState().getTerminated().getReason();
        String message = status.getState().getTerminated().getMessage();
        changes.seen("container \"" + status.getName() + "\" terminated: exit code " + seen.exitCode
            + (seen.reason == null ? "" : " (" + seen.reason + ")") + (message == null ? "" : ": " + message));
      }
    }
    notifyAll();
  }

  synchronized Seen container(String name) {
    return containers.getOrDefault(name, new Seen());
  }

  /** The pod is Ready (its readiness probes pass), or has ended: what a start with probes waits for. */
  synchronized boolean ready() {
    return readyNanos != null || "Failed".equals(phase) || "Succeeded".equals(phase) || goneNanos != null;
  }

  synchronized Long goneNanos() {
    return goneNanos;
  }

  /** Every container is running or has ended, or the pod has: what a start waits for. */
  synchronized boolean started(int containerCount) {
    if ("Failed".equals(phase) || "Succeeded".equals(phase) || goneNanos != null) {
      return true;
    }
    return containers.size() >= containerCount && containers.values().stream()
        .allMatch(s -> s.runningNanos != null || s.terminatedNanos != null);
  }

  /** Waits until the condition holds, the deadline passes or {@code stop} says so; returns the condition. */
  synchronized boolean await(BooleanSupplier condition, long millis, BooleanSupplier stop)
      throws InterruptedException {
    long deadline = System.nanoTime() + millis * 1_000_000;
    while (!condition.getAsBoolean() && !stop.getAsBoolean()) {
      long left = (deadline - System.nanoTime()) / 1_000_000;
      if (left <= 0) {
        break;
      }
      // Bounded, so that a stop requested from another thread is noticed without a notification.
      wait(Math.min(left, 100));
    }
    return condition.getAsBoolean();
  }

  @Override
  public void close() {
    watch.close();
  }
}
