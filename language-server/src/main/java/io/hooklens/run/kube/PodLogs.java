package io.hooklens.run.kube;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/** Where a container's output comes from: the API's log endpoint, or the embedded node itself. */
@FunctionalInterface
public interface PodLogs {
  /** The end of the container's output, or empty when it cannot be read. */
  BoundedOutput.Tail read(String namespace, String pod, String container);

  /** One ended run of a container: its exit code and what it printed. */
  record Run(Integer exitCode, BoundedOutput.Tail output) {}

  /**
   * The container's ended runs in order, each with its own output; empty where runs cannot be told apart, as
   * through the API, which keeps only the current and the previous run's logs.
   */
  default List<Run> runs(String namespace, String pod, String container) {
    return List.of();
  }

  /** Reads logs through the API, as kubectl logs does (a real cluster), keeping their end. */
  static PodLogs api(KubernetesClient client) {
    return (namespace, pod, container) -> {
      BoundedOutput kept = new BoundedOutput();
      try (InputStream log = client.pods().inNamespace(namespace).withName(pod).inContainer(container)
          .getLogInputStream()) {
        if (log != null) {
          kept.readAll(log);
        }
      } catch (KubernetesClientException | IOException e) {
        // What was read before the failure is kept.
      }
      return kept.tail();
    };
  }
}
