package io.hooklens.run.node;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarSource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A container's environment as the kubelet makes it ({@code makeEnvironmentVariables}): {@code envFrom} first
 * (ConfigMaps and Secrets read through the API, with their prefix), then {@code env}, whose literal values
 * expand {@code $(NAME)} references to variables defined before them and whose {@code valueFrom} reads a
 * ConfigMap or Secret key or a field of the pod. A ConfigMap, Secret or key that is missing and not
 * {@code optional} is an error: the container cannot be created until it exists
 * ({@code CreateContainerConfigError}).
 */
final class Environment {
  private static final Pattern REFERENCE = Pattern.compile("\\$\\$|\\$\\(([-._a-zA-Z][-._a-zA-Z0-9]*)\\)");
  private static final Pattern FIELD_KEY = Pattern.compile("metadata\\.(labels|annotations)\\['(.+)'\\]");

  /** Why the environment cannot be made: the kubelet's message. */
  static final class ConfigError extends Exception {
    ConfigError(String message) {
      super(message);
    }
  }

  private final KubernetesClient client;
  private final Pod pod;
  private final String namespace;
  private final Consumer<String> warning;
  private final String podIp;

  /**
   * @param podIp what {@code status.podIP} reads
   * @param warning hears what the node leaves out (resource fields)
   */
  Environment(KubernetesClient client, Pod pod, String podIp, Consumer<String> warning) {
    this.client = client;
    this.pod = pod;
    this.podIp = podIp;
    this.namespace = pod.getMetadata().getNamespace();
    this.warning = warning;
  }

  /** The image's variables, then the container's over them, as a container runtime merges them. */
  Map<String, String> of(Image image, Container container) throws ConfigError {
    Map<String, String> env = new LinkedHashMap<>();
    if (image != null) {
      for (String pair : image.env()) {
        int eq = pair.indexOf('=');
        env.put(eq < 0 ? pair : pair.substring(0, eq), eq < 0 ? "" : pair.substring(eq + 1));
      }
    }
    env.putAll(of(container));
    return env;
  }

  /** The variables of a container, {@code HOSTNAME} first. */
  Map<String, String> of(Container container) throws ConfigError {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("HOSTNAME", pod.getMetadata().getName());
    for (EnvFromSource from : list(container.getEnvFrom())) {
      String prefix = from.getPrefix() == null ? "" : from.getPrefix();
      if (from.getConfigMapRef() != null) {
        Map<String, String> data = configMap(from.getConfigMapRef().getName(),
            Boolean.TRUE.equals(from.getConfigMapRef().getOptional()));
        data.forEach((k, v) -> env.put(prefix + k, v));
      } else if (from.getSecretRef() != null) {
        Map<String, String> data = secret(from.getSecretRef().getName(),
            Boolean.TRUE.equals(from.getSecretRef().getOptional()));
        data.forEach((k, v) -> env.put(prefix + k, v));
      }
    }
    for (EnvVar var : list(container.getEnv())) {
      if (var.getValueFrom() == null) {
        env.put(var.getName(), expand(var.getValue() == null ? "" : var.getValue(), env));
        continue;
      }
      String value = valueFrom(var.getName(), var.getValueFrom());
      if (value != null) {
        env.put(var.getName(), value);
      }
    }
    return env;
  }

  /** {@code $(NAME)} replaced by a variable defined earlier, {@code $$} by {@code $}; other text as it is. */
  static String expand(String value, Map<String, String> defined) {
    Matcher m = REFERENCE.matcher(value);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String replacement = m.group(1) == null ? "$" : defined.getOrDefault(m.group(1), m.group());
      m.appendReplacement(out, Matcher.quoteReplacement(replacement));
    }
    m.appendTail(out);
    return out.toString();
  }

  /** Each word expanded as {@link #expand(String, Map)} does; null stays null. */
  static List<String> expand(List<String> words, Map<String, String> defined) {
    return words == null ? null : words.stream().map(w -> expand(w, defined)).toList();
  }

  /** A {@code valueFrom}'s value, or null when an optional source is missing or the node cannot give it. */
  private String valueFrom(String name, EnvVarSource source) throws ConfigError {
    if (source.getConfigMapKeyRef() != null) {
      var ref = source.getConfigMapKeyRef();
      boolean optional = Boolean.TRUE.equals(ref.getOptional());
      Map<String, String> data = configMap(ref.getName(), optional);
      if (!data.containsKey(ref.getKey()) && !optional) {
        throw new ConfigError("couldn't find key " + ref.getKey() + " in ConfigMap " + namespace + "/" + ref.getName());
      }
      return data.get(ref.getKey());
    }
    if (source.getSecretKeyRef() != null) {
      var ref = source.getSecretKeyRef();
      boolean optional = Boolean.TRUE.equals(ref.getOptional());
      Map<String, String> data = secret(ref.getName(), optional);
      if (!data.containsKey(ref.getKey()) && !optional) {
        throw new ConfigError("couldn't find key " + ref.getKey() + " in Secret " + namespace + "/" + ref.getName());
      }
      return data.get(ref.getKey());
    }
    if (source.getFieldRef() != null) {
      return field(name, source.getFieldRef().getFieldPath());
    }
    warning.accept("env " + name + " reads a container's resources, which the embedded node does not set; it is "
        + "left unset");
    return null;
  }

  private String field(String name, String path) {
    Matcher key = FIELD_KEY.matcher(path == null ? "" : path);
    if (key.matches()) {
      Map<String, String> map = "labels".equals(key.group(1)) ? pod.getMetadata().getLabels()
          : pod.getMetadata().getAnnotations();
      return map == null ? "" : map.getOrDefault(key.group(2), "");
    }
    String value = switch (path == null ? "" : path) {
      case "metadata.name" -> pod.getMetadata().getName();
      case "metadata.namespace" -> namespace;
      case "metadata.uid" -> pod.getMetadata().getUid();
      case "spec.nodeName" -> NodeAgent.NODE_NAME;
      // The API server defaults it.
      case "spec.serviceAccountName" -> pod.getSpec().getServiceAccountName() == null ? "default"
          : pod.getSpec().getServiceAccountName();
      case "status.podIP", "status.podIPs" -> podIp;
      case "status.hostIP", "status.hostIPs" -> Sandbox.LOOPBACK;
      default -> null;
    };
    if (value == null) {
      warning.accept("env " + name + " reads field " + path + ", which the embedded node does not know; it is left "
          + "unset");
    }
    return value;
  }

  private Map<String, String> configMap(String name, boolean optional) throws ConfigError {
    ConfigMap map = client.configMaps().inNamespace(namespace).withName(name).get();
    if (map == null) {
      if (optional) {
        return Map.of();
      }
      throw new ConfigError("configmap \"" + name + "\" not found");
    }
    Map<String, String> data = new LinkedHashMap<>();
    if (map.getData() != null) {
      data.putAll(map.getData());
    }
    return data;
  }

  private Map<String, String> secret(String name, boolean optional) throws ConfigError {
    Secret secret = client.secrets().inNamespace(namespace).withName(name).get();
    if (secret == null) {
      if (optional) {
        return Map.of();
      }
      throw new ConfigError("secret \"" + name + "\" not found");
    }
    Map<String, String> data = new LinkedHashMap<>();
    if (secret.getData() != null) {
      secret.getData().forEach((k, v) -> data.put(k, decode(v)));
    }
    // The API server folds stringData into data; a store that keeps it as written is read the same way.
    if (secret.getStringData() != null) {
      data.putAll(secret.getStringData());
    }
    return data;
  }

  private static String decode(String base64) {
    try {
      return new String(Base64.getDecoder().decode(base64 == null ? "" : base64.strip()), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return "";
    }
  }

  private static <T> List<T> list(List<T> value) {
    return value == null ? List.of() : value;
  }
}
