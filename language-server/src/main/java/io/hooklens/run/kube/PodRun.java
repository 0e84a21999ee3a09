package io.hooklens.run.kube;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.List;

/**
 * A pod as it ended up, for reports: its phase (and reason, such as {@code DeadlineExceeded}) and each
 * container's last exit code, restarts and output over all its runs.
 */
public record PodRun(String name, String phase, String reason, List<ContainerRun> containers) {
  /**
   * A container of the pod: exit code, reason and message of its last run (the exit code null while it runs
   * or waits, with the reason it waits, such as {@code CreateContainerConfigError}), and the end of what it
   * printed, after {@code outputDroppedBytes} bytes that were not kept; {@code runs} its ended runs with their own
   * output, where they can be told apart.
   */
  public record ContainerRun(String name, Integer exitCode, String reason, String message, int restarts,
      String output, long outputDroppedBytes, List<PodLogs.Run> runs) {}

  /** Reads a pod's status and its containers' output. */
  public static PodRun of(Pod pod, PodLogs logs) {
    String namespace = pod.getMetadata().getNamespace();
    String name = pod.getMetadata().getName();
    List<ContainerRun> containers = new ArrayList<>();
    List<ContainerStatus> statuses = pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null
        ? List.of() : pod.getStatus().getContainerStatuses();
    for (var container : pod.getSpec().getContainers()) {
      ContainerStatus status = statuses.stream().filter(s -> s.getName().equals(container.getName())).findFirst()
          .orElse(null);
      var terminated = status == null || status.getState() == null ? null : status.getState().getTerminated();
      var waiting = status == null || status.getState() == null ? null : status.getState().getWaiting();
      String reason = terminated != null ? terminated.getReason() : waiting != null ? waiting.getReason() : null;
      String message = terminated != null ? terminated.getMessage() : waiting != null ? waiting.getMessage() : null;
      BoundedOutput.Tail output = logs.read(namespace, name, container.getName());
      containers.add(new ContainerRun(container.getName(), terminated == null ? null : terminated.getExitCode(),
          reason, message, status == null ? 0 : status.getRestartCount(), output.text(), output.droppedBytes(),
          logs.runs(namespace, name, container.getName())));
    }
    return new PodRun(name, pod.getStatus() == null ? null : pod.getStatus().getPhase(),
        pod.getStatus() == null ? null : pod.getStatus().getReason(), List.copyOf(containers));
  }
}
