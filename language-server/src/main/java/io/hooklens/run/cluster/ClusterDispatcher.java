package io.hooklens.run.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.crud.KubernetesCrudDispatcherException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.zjsonpatch.JsonPatch;
import io.hooklens.core.model.Termination;
import java.lang.reflect.Field;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The CRUD mock plus what a real API server does and the mock does not: discovery documents for
 * kubectl, 404 for OpenAPI (so kubectl skips client-side validation instead of failing on an empty list),
 * and graceful pod deletion.
 *
 * <p>Graceful deletion: deleting a pod that is bound to a node and not yet terminal only sets
 * {@code deletionTimestamp} (now + grace) and {@code deletionGracePeriodSeconds}; the node agent kills
 * the containers and then deletes the pod with grace 0, which removes it. A later delete may only shorten
 * the grace. The mock treats "marked for deletion without finalizers" as "remove", so writes to a
 * terminating pod (the agent's status updates) are applied here rather than by the mock.
 */
final class ClusterDispatcher extends KubernetesCrudDispatcher {
  private static final Pattern POD = Pattern.compile("/api/v1/namespaces/([^/]+)/pods/([^/]+)(/status)?");
  private static final Pattern GRACE_QUERY = Pattern.compile("(?:^|&)gracePeriodSeconds=(-?\\d+)");

  private final Map<String, String> discovery;
  private final Lock writeLock;

  ClusterDispatcher(Map<String, String> discovery) {
    super(List.of());
    this.discovery = discovery;
    this.writeLock = mockLock().writeLock();
  }

  // The mock applies every write under a private lock; graceful deletion must hold the same one.
  private ReadWriteLock mockLock() {
    try {
      Field field = KubernetesCrudDispatcher.class.getDeclaredField("lock");
      field.setAccessible(true);
      return (ReadWriteLock) field.get(this);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("unsupported kubernetes-server-mock version", e);
    }
  }

  @Override
  public MockResponse dispatch(RecordedRequest request) {
    String full = request.getPath();
    int q = full.indexOf('?');
    String path = q < 0 ? full : full.substring(0, q);
    String query = q < 0 ? "" : full.substring(q + 1);
    String method = request.getMethod();
    if ("GET".equals(method) && discovery.containsKey(path)) {
      return json(200, discovery.get(path));
    }
    if (path.startsWith("/openapi/")) {
      return new MockResponse().setResponseCode(404).setBody("");
    }
    Matcher pod = POD.matcher(path);
    if (pod.matches() && !"GET".equals(method) && !"POST".equals(method)) {
      writeLock.lock();
      try {
        Map.Entry<AttributeSet, String> entry = findResource(getKey(path));
        if (entry != null) {
          if ("DELETE".equals(method) && pod.group(3) == null) {
            return deletePod(request, path, query, entry);
          }
          if (Serialization.unmarshal(entry.getValue(), Pod.class).getMetadata().getDeletionTimestamp() != null) {
            return updateTerminatingPod(request, path, pod.group(3) != null, entry);
          }
        }
      } catch (KubernetesCrudDispatcherException e) {
        return new MockResponse().setResponseCode(e.getCode()).setBody(e.toStatusBody());
      } finally {
        writeLock.unlock();
      }
    }
    return super.dispatch(request);
  }

  private MockResponse deletePod(RecordedRequest request, String path, String query,
      Map.Entry<AttributeSet, String> entry) {
    Pod pod = Serialization.unmarshal(entry.getValue(), Pod.class);
    long grace = requestedGrace(request, query, pod);
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    boolean bound = pod.getSpec() != null && pod.getSpec().getNodeName() != null;
    boolean terminal = "Succeeded".equals(phase) || "Failed".equals(phase);
    Long current = pod.getMetadata().getDeletionGracePeriodSeconds();
    if (grace == 0 || !bound || terminal) {
      return super.handleDelete(path);
    }
    if (pod.getMetadata().getDeletionTimestamp() != null && current != null && current <= grace) {
      return json(200, entry.getValue());
    }
    pod.getMetadata().setDeletionGracePeriodSeconds(grace);
    pod.getMetadata().setDeletionTimestamp(Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(grace).toString());
    pod.getMetadata().setResourceVersion(String.valueOf(requestResourceVersion()));
    String updated = Serialization.asJson(pod);
    processEvent(path, getKey(path), entry.getKey(), null, updated);
    return json(200, updated);
  }

  // The API server's rule for pods: the delete request's grace wins, else the pod's; negative means 1.
  private static long requestedGrace(RecordedRequest request, String query, Pod pod) {
    Long grace = null;
    Matcher m = GRACE_QUERY.matcher(URLDecoder.decode(query, StandardCharsets.UTF_8));
    if (m.find()) {
      grace = Long.parseLong(m.group(1));
    } else {
      String body = request.getBody() == null ? "" : request.getBody().readUtf8();
      if (!body.isBlank()) {
        JsonNode options = Serialization.unmarshal(body, JsonNode.class);
        if (options != null && options.path("gracePeriodSeconds").isNumber()) {
          grace = options.path("gracePeriodSeconds").asLong();
        }
      }
    }
    if (grace == null && pod.getSpec() != null) {
      grace = pod.getSpec().getTerminationGracePeriodSeconds();
    }
    if (grace == null) {
      grace = Termination.DEFAULT_GRACE_SECONDS;
    }
    return grace < 0 ? 1 : grace;
  }

  private MockResponse updateTerminatingPod(RecordedRequest request, String path, boolean statusOnly,
      Map.Entry<AttributeSet, String> entry) throws KubernetesCrudDispatcherException {
    JsonNode current = asNode(entry);
    String body = request.getBody().readUtf8();
    JsonNode written;
    if ("PUT".equals(request.getMethod())) {
      written = asNode(body);
    } else if (String.valueOf(request.getHeader("Content-Type")).contains("json-patch")) {
      written = JsonPatch.apply(asNode(body), current);
    } else {
      written = merge(current, body);
    }
    ObjectNode updated;
    if (statusOnly) {
      updated = current.deepCopy();
      updated.set("status", written.get("status"));
    } else {
      updated = (ObjectNode) written;
      ObjectNode meta = (ObjectNode) updated.get("metadata");
      meta.set("deletionTimestamp", current.path("metadata").get("deletionTimestamp"));
      meta.set("deletionGracePeriodSeconds", current.path("metadata").get("deletionGracePeriodSeconds"));
    }
    preserveMetadata(current, updated);
    touchResourceVersion(current, updated);
    String json = Serialization.asJson(updated);
    processEvent(path, getKey(path), entry.getKey(), null, json);
    return json(200, json);
  }

  private static MockResponse json(int code, String body) {
    return new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json").setBody(body);
  }
}
