package io.hooklens.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.hooklens.run.RunException;
import io.hooklens.run.Runner;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPInputStream;

/**
 * Lints the workloads a cluster serves, read-only: each object is written out as YAML, without what the server
 * sets, and linted as a file named {@code cluster://context/namespace/kind/name}. Helm hooks come from the latest
 * release secret of each release. What may not be read is told to the sink as a note, kind by kind; nothing is
 * ever written to the cluster.
 */
public final class ClusterAudit {
  /** A kind to list: its apiVersion and kind. */
  private record Kind(String apiVersion, String kind) {}

  private static final List<Kind> WORKLOADS = List.of(new Kind("apps/v1", "Deployment"),
      new Kind("apps/v1", "StatefulSet"), new Kind("apps/v1", "DaemonSet"), new Kind("batch/v1", "Job"),
      new Kind("batch/v1", "CronJob"), new Kind("v1", "Pod"));
  private static final Kind DEPLOYMENT_CONFIG = new Kind("apps.openshift.io/v1", "DeploymentConfig");
  private static final List<String> SERVER_METADATA = List.of("managedFields", "resourceVersion", "uid",
      "creationTimestamp", "generation", "selfLink");

  /** The namespace that stands for all of them. */
  public static final String ALL_NAMESPACES = "*";

  private final KubernetesClient client;
  private final String context;
  private final Lint lint;
  private final Lint.Sink sink;

  /**
   * @param client a client for the cluster; only its list calls are used
   * @param context the context name that findings' locations carry
   */
  public ClusterAudit(KubernetesClient client, String context, Lint lint, Lint.Sink sink) {
    this.client = client;
    this.context = context;
    this.lint = lint;
    this.sink = sink;
  }

  /**
   * Lints what the cluster of a kubeconfig context serves, as {@code run --context} resolves the context.
   *
   * @param kubeconfig the kubeconfig, or null for {@code KUBECONFIG}, then {@code ~/.kube/config}
   * @param namespace the namespace to read, {@link #ALL_NAMESPACES}, or null for the context's
   * @return how many kinds could not be read; a cluster that cannot be reached at all is told as a problem
   */
  public static int context(String context, Path kubeconfig, String namespace, Lint lint, Lint.Sink sink)
      throws ConfigResolver.ConfigException {
    try (KubernetesClient client = Runner.contextClient(context, kubeconfig)) {
      String ns = ALL_NAMESPACES.equals(namespace) ? null : namespace != null ? namespace
          : Optional.ofNullable(client.getNamespace()).orElse("default");
      return new ClusterAudit(client, context, lint, sink).audit(ns);
    } catch (RunException e) {
      sink.problem(e.getMessage());
      return 1;
    }
  }

  /**
   * Lints the workloads of a namespace, or of all namespaces when namespace is null.
   *
   * @return how many kinds could not be read
   */
  public int audit(String namespace) throws ConfigResolver.ConfigException {
    List<Kind> kinds = new ArrayList<>(WORKLOADS);
    if (servesDeploymentConfigs()) {
      kinds.add(DEPLOYMENT_CONFIG);
    }
    int unread = 0;
    for (Kind kind : kinds) {
      unread += workloads(kind, namespace) ? 0 : 1;
    }
    return unread + (helmHooks(namespace) ? 0 : 1);
  }

  private boolean servesDeploymentConfigs() {
    try {
      return client.getApiGroup("apps.openshift.io") != null;
    } catch (KubernetesClientException e) {
      return false;
    }
  }

  private boolean workloads(Kind kind, String namespace) throws ConfigResolver.ConfigException {
    List<GenericKubernetesResource> items;
    try {
      var all = client.genericKubernetesResources(kind.apiVersion(), kind.kind());
      items = (namespace == null ? all.inAnyNamespace() : all.inNamespace(namespace)).list().getItems();
    } catch (KubernetesClientException e) {
      unreadable(kind.kind(), namespace, e);
      return false;
    }
    items.sort(Comparator.comparing((GenericKubernetesResource r) -> String.valueOf(r.getMetadata().getNamespace()))
        .thenComparing(r -> r.getMetadata().getName()));
    for (GenericKubernetesResource item : items) {
      // A pod with an owner is linted through its owner, whose template made it.
      if ("Pod".equals(kind.kind()) && !item.getMetadata().getOwnerReferences().isEmpty()) {
        continue;
      }
      Map<String, Object> object = Serialization.jsonMapper().convertValue(item, Map.class);
      lintObject(item.getMetadata().getNamespace(), kind.kind(), item.getMetadata().getName(), specOnly(object));
    }
    return true;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> specOnly(Map<String, Object> object) {
    Map<String, Object> copy = new LinkedHashMap<>(object);
    copy.remove("status");
    if (copy.get("metadata") instanceof Map<?, ?> metadata) {
      Map<String, Object> m = new LinkedHashMap<>((Map<String, Object>) metadata);
      SERVER_METADATA.forEach(m::remove);
      copy.put("metadata", m);
    }
    return copy;
  }

  private void lintObject(String namespace, String kind, String name, Map<String, Object> object)
      throws ConfigResolver.ConfigException {
    lint(location(namespace, kind, name), Serialization.asYaml(object));
  }

  private void lint(String location, String yaml) throws ConfigResolver.ConfigException {
    lint.text(location, yaml.getBytes(StandardCharsets.UTF_8));
  }

  private String location(String namespace, String kind, String name) {
    return "cluster://" + context + "/" + (namespace == null ? "_" : namespace) + "/" + kind + "/" + name;
  }

  private boolean helmHooks(String namespace) throws ConfigResolver.ConfigException {
    List<Secret> secrets;
    try {
      var all = client.secrets();
      secrets = (namespace == null ? all.inAnyNamespace() : all.inNamespace(namespace)).withLabel("owner", "helm")
          .list().getItems();
    } catch (KubernetesClientException e) {
      unreadable("Secret", namespace, e);
      return false;
    }
    Map<String, Secret> latest = new LinkedHashMap<>();
    for (Secret s : secrets) {
      if (!"helm.sh/release.v1".equals(s.getType())) {
        continue;
      }
      String release = s.getMetadata().getNamespace() + "/" + s.getMetadata().getLabels().get("name");
      latest.merge(release, s, (a, b) -> version(a) >= version(b) ? a : b);
    }
    for (Secret s : latest.values()) {
      String ns = s.getMetadata().getNamespace();
      String release = s.getMetadata().getLabels().get("name");
      JsonNode json;
      try {
        json = decode(s.getData().get("release"));
      } catch (IOException | IllegalArgumentException | NullPointerException e) {
        sink.note("could not read Helm release " + ns + "/" + release + ": " + e.getMessage());
        continue;
      }
      for (JsonNode hook : json.path("hooks")) {
        String where = location(ns, "HelmRelease", release) + "/" + hook.path("path").asText(hook.path("name").asText());
        lint(where, hook.path("manifest").asText());
      }
    }
    return true;
  }

  private static int version(Secret s) {
    try {
      return Integer.parseInt(s.getMetadata().getLabels().getOrDefault("version", "0"));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** A release secret's data is base64 (the API's) of base64 (Helm's) of gzipped JSON. */
  static JsonNode decode(String data) throws IOException {
    byte[] helm = Base64.getDecoder().decode(data);
    byte[] gzipped = Base64.getDecoder().decode(helm);
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped))) {
      return new ObjectMapper().readTree(in);
    }
  }

  private void unreadable(String kind, String namespace, KubernetesClientException e) {
    String where = namespace == null ? "in any namespace" : "in namespace " + namespace;
    String why = e.getCode() == 403 ? "forbidden" : e.getCode() == 404 ? "not served" : e.getMessage();
    sink.note("could not read " + kind + " " + where + " on " + context + ": " + why);
  }
}
