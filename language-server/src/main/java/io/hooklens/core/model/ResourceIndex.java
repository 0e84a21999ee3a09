package io.hooklens.core.model;

import io.hooklens.core.yaml.ParsedFile;
import io.hooklens.core.yaml.Range;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YScalar;
import io.hooklens.core.yaml.YSeq;
import io.hooklens.core.yaml.YamlDocument;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Finds resources and the pod specs they carry. */
final class ResourceIndex {
  /** Where each built-in kind keeps its pod spec. */
  private static final Map<String, List<String>> POD_SPEC_PATHS = Map.ofEntries(
      Map.entry("Pod", List.of("spec")),
      Map.entry("Deployment", List.of("spec", "template", "spec")),
      Map.entry("StatefulSet", List.of("spec", "template", "spec")),
      Map.entry("DaemonSet", List.of("spec", "template", "spec")),
      Map.entry("ReplicaSet", List.of("spec", "template", "spec")),
      Map.entry("ReplicationController", List.of("spec", "template", "spec")),
      Map.entry("Job", List.of("spec", "template", "spec")),
      Map.entry("DeploymentConfig", List.of("spec", "template", "spec")),
      Map.entry("PodTemplate", List.of("template", "spec")),
      Map.entry("CronJob", List.of("spec", "jobTemplate", "spec", "template", "spec")));

  /** Kinds that hold no pod spec and are not worth searching (schemas mention "containers" too). */
  private static final Set<String> NO_POD_SPEC = Set.of("CustomResourceDefinition", "ConfigMap", "Secret",
      "Service", "ServiceAccount", "Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding", "Namespace",
      "PersistentVolumeClaim", "PersistentVolume", "Ingress", "NetworkPolicy", "Event",
      "MutatingWebhookConfiguration", "ValidatingWebhookConfiguration", "APIService", "StorageClass",
      "PodDisruptionBudget", "HorizontalPodAutoscaler", "PriorityClass", "LimitRange", "ResourceQuota");

  /** The legacy ungrouped API versions an OpenShift Template was written in, pre-release ones included. */
  private static final Set<String> LEGACY_TEMPLATE_VERSIONS = Set.of("v1", "v1beta1", "v1beta3");

  private static final int MAX_SEARCH_DEPTH = 40;

  private final List<Resource> resources = new ArrayList<>();
  private final List<PodSpec> podSpecs = new ArrayList<>();
  private final List<Container> containers = new ArrayList<>();
  private final List<Handler> handlers = new ArrayList<>();
  private final ParsedFile parsed;

  private ResourceIndex(ParsedFile parsed) {
    this.parsed = parsed;
  }

  static HookDocument build(String name, ParsedFile parsed) {
    ResourceIndex index = new ResourceIndex(parsed);
    for (YamlDocument doc : parsed.documents()) {
      if (doc.root() instanceof YMap root) {
        index.resource(doc.index(), root, null, false);
      }
    }
    return new HookDocument(name, parsed, index.resources, index.podSpecs, index.containers, index.handlers);
  }

  private void resource(int document, YMap root, Resource parent, boolean inTemplate) {
    String kind = root.string("kind");
    String apiVersion = root.string("apiVersion");
    if (kind == null && apiVersion == null) {
      // Not a Kubernetes-style object (a values file, a compose file): nothing to check.
      return;
    }
    YMap md = root.map("metadata");
    Resource r = new Resource(document, root, apiVersion, kind,
        md == null ? null : text(md, "name"), md == null ? null : text(md, "namespace"), parent, inTemplate);
    resources.add(r);
    if (kind == null) {
      return;
    }
    if (isTemplate(r)) {
      // The 2015 v1beta1 Template called its object list items.
      YSeq objects = root.has("objects") ? root.seq("objects") : root.seq("items");
      if (objects != null) {
        for (YNode o : objects.items()) {
          if (o instanceof YMap m) {
            resource(document, m, r, true);
          }
        }
      }
      return;
    }
    if (kind.endsWith("List") && root.get("items") instanceof YSeq items) {
      for (YNode o : items.items()) {
        if (o instanceof YMap m) {
          resource(document, m, r, inTemplate);
        }
      }
      return;
    }
    List<String> path = POD_SPEC_PATHS.get(kind);
    if (path != null) {
      YMap spec = root;
      for (String step : path) {
        spec = spec == null ? null : spec.map(step);
      }
      if (spec != null) {
        podSpec(spec, r);
      }
    } else if (!NO_POD_SPEC.contains(kind)) {
      searchPodSpecs(root, r, Collections.newSetFromMap(new IdentityHashMap<>()), 0);
    }
  }

  private static boolean isTemplate(Resource r) {
    return "Template".equals(r.kind()) && r.apiVersion() != null
        && (r.apiVersion().startsWith("template.openshift.io/") || LEGACY_TEMPLATE_VERSIONS.contains(r.apiVersion()));
  }

  /** Custom resources (RayCluster, Argo Rollout...) embed pod specs at paths of their own. */
  private void searchPodSpecs(YNode node, Resource owner, Set<YNode> seen, int depth) {
    if (depth > MAX_SEARCH_DEPTH || !seen.add(node)) {
      return;
    }
    if (node instanceof YMap m) {
      if (looksLikePodSpec(m)) {
        podSpec(m, owner);
        return;
      }
      for (YMap.Entry e : m.entries()) {
        searchPodSpecs(e.value(), owner, seen, depth + 1);
      }
    } else if (node instanceof YSeq s) {
      for (YNode item : s.items()) {
        searchPodSpecs(item, owner, seen, depth + 1);
      }
    }
  }

  /** A string field as the user wrote it (template text included), or null. */
  private String text(YMap m, String key) {
    String v = m.string(key);
    return v == null ? null : parsed.display(m.scalar(key));
  }

  /** A mapping's range from the line of its key, where template output above the first field can sit. */
  private static Range withKeyLine(YMap node) {
    if (node.parent() instanceof YMap parent && node.keyInParent() instanceof String key) {
      YMap.Entry e = parent.entry(key);
      if (e != null && e.value() == node) {
        return new Range(e.key().range().start(), node.range().end());
      }
    }
    return node.range();
  }

  private static boolean looksLikePodSpec(YMap m) {
    YSeq cs = m.seq("containers");
    return cs != null && cs.size() > 0 && cs.items().stream().allMatch(c -> c instanceof YMap cm && cm.has("name"));
  }

  private void podSpec(YMap spec, Resource owner) {
    PodSpec pod = new PodSpec(spec, owner, parsed.hidesContent(withKeyLine(spec)));
    podSpecs.add(pod);
    for (Container.Kind kind : Container.Kind.values()) {
      YSeq list = spec.seq(kind.field());
      if (list == null) {
        continue;
      }
      for (int i = 0; i < list.size(); i++) {
        if (list.get(i) instanceof YMap cm) {
          Container c = new Container(cm, pod, kind, i, text(cm, "name"), parsed.hidesContent(cm.range()));
          containers.add(c);
          YMap lifecycle = c.lifecycle();
          if (lifecycle != null && c.mayHaveLifecycle()) {
            for (Hook hook : Hook.values()) {
              YMap.Entry e = lifecycle.entry(hook.field());
              if (e != null && !(e.value() instanceof YScalar s && s.type() == YScalar.Type.NULL)) {
                handlers.add(new Handler(c, hook, e.key(), e.value()));
              }
            }
          }
        }
      }
    }
  }
}
