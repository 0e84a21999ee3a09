package io.hooklens.run.kube;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Writes core/v1 Events about an object as the recorders of the kubelet and the controllers do. */
public final class EventRecorder {
  private static final Logger LOG = Logger.getLogger(EventRecorder.class.getName());
  private static final AtomicLong SEQUENCE = new AtomicLong(System.currentTimeMillis());

  private final KubernetesClient client;
  private final String host;

  /** {@code host}: the node the events come from, or null for a controller. */
  public EventRecorder(KubernetesClient client, String host) {
    this.client = client;
    this.host = host;
  }

  /**
   * An event about {@code object} ({@code fieldPath} a part of it, such as {@code spec.containers{app}}, or
   * null), reported by {@code component}.
   */
  public void record(HasMetadata object, String fieldPath, String component, boolean warning, String reason,
      String message) {
    String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    String namespace = object.getMetadata().getNamespace();
    try {
      client.v1().events().inNamespace(namespace).resource(new EventBuilder()
          .withNewMetadata().withNamespace(namespace)
          .withName(object.getMetadata().getName() + "." + Long.toHexString(SEQUENCE.incrementAndGet())).endMetadata()
          .withNewInvolvedObject().withApiVersion(object.getApiVersion()).withKind(object.getKind())
          .withNamespace(namespace).withName(object.getMetadata().getName()).withUid(object.getMetadata().getUid())
          .withFieldPath(fieldPath).endInvolvedObject()
          .withType(warning ? "Warning" : "Normal").withReason(reason).withMessage(message)
          .withNewSource().withComponent(component).withHost(host).endSource()
          .withReportingComponent(component).withReportingInstance(host == null ? component : host)
          .withFirstTimestamp(now).withLastTimestamp(now).withCount(1).build()).create();
    } catch (KubernetesClientException e) {
      LOG.log(Level.WARNING, "cannot record event " + reason + " for " + object.getMetadata().getName(), e);
    }
  }
}
