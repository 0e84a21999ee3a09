package io.hooklens.run;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.PodSpec;
import io.hooklens.core.yaml.JsonTree;
import io.hooklens.run.node.NodeAgent;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The hostPath mounts a run's manifest makes writable in so many words ({@code readOnly: false}). A real API server
 * never returns {@code readOnly: false} ({@code omitempty} on a bool), so a node that reads pods through it learns
 * them from the run; any other hostPath stays read-only.
 */
final class WritableHostPaths {
  private WritableHostPaths() {}

  static Set<NodeAgent.HostMount> of(HookDocument doc) {
    Set<NodeAgent.HostMount> writable = new HashSet<>();
    for (PodSpec spec : doc.podSpecs()) {
      add(JsonTree.of(spec.node()), writable);
    }
    return writable;
  }

  static Set<NodeAgent.HostMount> of(List<PodPlan> pods) {
    Set<NodeAgent.HostMount> writable = new HashSet<>();
    for (PodPlan pod : pods) {
      add(Serialization.jsonMapper().valueToTree(pod.pod().getSpec()), writable);
    }
    return writable;
  }

  private static void add(JsonNode spec, Set<NodeAgent.HostMount> writable) {
    Map<String, String> hostPaths = new HashMap<>();
    for (JsonNode v : spec.path("volumes")) {
      if (v.path("hostPath").path("path").isTextual()) {
        hostPaths.put(v.path("name").asText(), v.path("hostPath").path("path").asText());
      }
    }
    for (String list : List.of("initContainers", "containers")) {
      for (JsonNode c : spec.path(list)) {
        for (JsonNode m : c.path("volumeMounts")) {
          String path = hostPaths.get(m.path("name").asText());
          if (path != null && m.path("readOnly").isBoolean() && !m.path("readOnly").asBoolean()) {
            writable.add(new NodeAgent.HostMount(path, m.path("mountPath").asText()));
          }
        }
      }
    }
  }
}
