package io.hooklens.run.node;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Writes core/v1 Events about a pod's containers as the kubelet's recorder does. */
final class EventRecorder {
  private static final Logger LOG = Logger.getLogger(EventRecorder.class.getName());
  private static final AtomicLong SEQUENCE = new AtomicLong(System.currentTimeMillis());

  private final KubernetesClient client;
  private final String node;

  EventRecorder(KubernetesClient client, String node) {
    this.client = client;
    this.node = node;
  }

  /** A container event ({@code container} null: about the pod), from the kubelet, or from {@code component}. */
  void record(Pod pod, String container, String component, boolean warning, String reason, String message) {
    String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    String namespace = pod.getMetadata().getNamespace();
    try {
      client.v1().events().inNamespace(namespace).resource(new EventBuilder()
          .withNewMetadata().withNamespace(namespace)
          .withName(pod.getMetadata().getName() + "." + Long.toHexString(SEQUENCE.incrementAndGet())).endMetadata()
          .withNewInvolvedObject().withApiVersion("v1").withKind("Pod").withNamespace(namespace)
          .withName(pod.getMetadata().getName()).withUid(pod.getMetadata().getUid())
          .withFieldPath(container == null ? null : "spec.containers{" + container + "}").endInvolvedObject()
          .withType(warning ? "Warning" : "Normal").withReason(reason).withMessage(message)
          .withNewSource().withComponent(component).withHost(node).endSource()
          .withReportingComponent(component).withReportingInstance(node)
          .withFirstTimestamp(now).withLastTimestamp(now).withCount(1).build()).create();
    } catch (KubernetesClientException e) {
      LOG.log(Level.WARNING, "cannot record event " + reason + " for " + pod.getMetadata().getName(), e);
    }
  }
}
