package io.hooklens.run;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/** Where a container's output comes from: the API's log endpoint, or the embedded node itself. */
@FunctionalInterface
public interface PodLogs {
  /** The container's output, or empty when it cannot be read. */
  String read(String namespace, String pod, String container);

  /** Reads logs through the API, as kubectl logs does (a real cluster). */
  static PodLogs api(KubernetesClient client) {
    return (namespace, pod, container) -> {
      try {
        String log = client.pods().inNamespace(namespace).withName(pod).inContainer(container).getLog();
        return log == null ? "" : log;
      } catch (KubernetesClientException e) {
        return "";
      }
    };
  }
}
