package io.hooklens.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.ByteArrayInputStream;
import java.io.IOException;
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
 * Reads the workloads a cluster serves, read-only: each object is handed on as YAML, without what the server
 * sets, named {@code cluster://context/namespace/kind/name}. Helm hooks come from the latest release secret of
 * each release. What may not be read is told as a note, kind by kind; nothing is ever written to the cluster.
 */
public final class ClusterReader {
  /**
   * Where what is read goes.
   *
   * @param <E> what handing an object on may throw
   */
  public interface Visitor<E extends Exception> {
    /** An object, as YAML, at its {@code cluster://} location. */
    void object(String location, String yaml) throws E;

    /** Something that could not be read; the rest goes on. */
    void note(String message);

    /** The cluster could not be reached at all. */
    void problem(String message);
  }

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

  /**
   * @param client a client for the cluster; only its list calls are used
   * @param context the context name that findings' locations carry
   */
  public ClusterReader(KubernetesClient client, String context) {
    this.client = client;
    this.context = context;
  }

  /**
   * Reads what the cluster of a kubeconfig context serves, as {@code run --context} resolves the context.
   *
   * @param kubeconfig the kubeconfig, or null for {@code KUBECONFIG}, then {@code ~/.kube/config}
   * @param namespace the namespace to read, {@link #ALL_NAMESPACES}, or null for the context's
   * @return how many kinds could not be read; a cluster that cannot be reached at all is told as a problem
   */
  public static <E extends Exception> int context(String context, Path kubeconfig, String namespace,
      Visitor<E> visitor) throws E {
    try (KubernetesClient client = Runner.contextClient(context, kubeconfig)) {
      String ns = ALL_NAMESPACES.equals(namespace) ? null : namespace != null ? namespace
          : Optional.ofNullable(client.getNamespace()).orElse("default");
      return new ClusterReader(client, context).read(ns, visitor);
    } catch (RunException e) {
      visitor.problem(e.getMessage());
      return 1;
    }
  }

  /**
   * Reads the workloads of a namespace, or of all namespaces when namespace is null.
   *
   * @return how many kinds could not be read
   */
  public <E extends Exception> int read(String namespace, Visitor<E> visitor) throws E {
    List<Kind> kinds = new ArrayList<>(WORKLOADS);
    if (servesDeploymentConfigs()) {
      kinds.add(DEPLOYMENT_CONFIG);
    }
    int unread = 0;
    for (Kind kind : kinds) {
      unread += workloads(kind, namespace, visitor) ? 0 : 1;
    }
    return unread + (helmHooks(namespace, visitor) ? 0 : 1);
  }

  private boolean servesDeploymentConfigs() {
    try {
      return client.getApiGroup("apps.openshift.io") != null;
    } catch (KubernetesClientException e) {
      return false;
    }
  }

  private <E extends Exception> boolean workloads(Kind kind, String namespace, Visitor<E> visitor) throws E {
    List<GenericKubernetesResource> items;
    try {
      var all = client.genericKubernetesResources(kind.apiVersion(), kind.kind());
      items = (namespace == null ? all.inAnyNamespace() : all.inNamespace(namespace)).list().getItems();
    } catch (KubernetesClientException e) {
      visitor.note(unreadable(kind.kind(), namespace, e));
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
      visitor.object(location(item.getMetadata().getNamespace(), kind.kind(), item.getMetadata().getName()),
          Serialization.asYaml(specOnly(object)));
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

  private String location(String namespace, String kind, String name) {
    return "cluster://" + context + "/" + (namespace == null ? "_" : namespace) + "/" + kind + "/" + name;
  }

  private <E extends Exception> boolean helmHooks(String namespace, Visitor<E> visitor) throws E {
    List<Secret> secrets;
    try {
      var all = client.secrets();
      secrets = (namespace == null ? all.inAnyNamespace() : all.inNamespace(namespace)).withLabel("owner", "helm")
          .list().getItems();
    } catch (KubernetesClientException e) {
      visitor.note(unreadable("Secret", namespace, e));
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
        visitor.note("could not read Helm release " + ns + "/" + release + ": " + e.getMessage());
        continue;
      }
      for (JsonNode hook : json.path("hooks")) {
        String where = location(ns, "HelmRelease", release) + "/" + hook.path("path").asText(hook.path("name").asText());
        visitor.object(where, hook.path("manifest").asText());
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

  private String unreadable(String kind, String namespace, KubernetesClientException e) {
    String where = namespace == null ? "in any namespace" : "in namespace " + namespace;
    String why = e.getCode() == 403 ? "forbidden" : e.getCode() == 404 ? "not served" : e.getMessage();
    return "could not read " + kind + " " + where + " on " + context + ": " + why;
  }
}
