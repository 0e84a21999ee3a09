package io.hooklens.core.model.helm;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The order in which Helm 3.2 to 4.x runs the hooks of one event: first by kind (Helm's install order,
 * unknown kinds last and alphabetically), then a stable sort by weight ascending and name ascending.
 * The name already breaks weight ties, so the kind order survives only between hooks of equal weight
 * and equal name, whatever Helm's documentation says.
 */
public final class HelmOrder {
  /** Helm's {@code InstallOrder}: kinds listed earlier are installed first. */
  public static final List<String> INSTALL_ORDER = List.of(
      "PriorityClass", "Namespace", "NetworkPolicy", "ResourceQuota", "LimitRange", "PodSecurityPolicy",
      "PodDisruptionBudget", "ServiceAccount", "Secret", "SecretList", "ConfigMap", "StorageClass",
      "PersistentVolume", "PersistentVolumeClaim", "CustomResourceDefinition", "ClusterRole", "ClusterRoleList",
      "ClusterRoleBinding", "ClusterRoleBindingList", "Role", "RoleList", "RoleBinding", "RoleBindingList",
      "Service", "DaemonSet", "Pod", "ReplicationController", "ReplicaSet", "Deployment", "HorizontalPodAutoscaler",
      "StatefulSet", "Job", "CronJob", "IngressClass", "Ingress", "APIService", "MutatingWebhookConfiguration",
      "ValidatingWebhookConfiguration");

  private static final Map<String, Integer> RANK = rank();

  /** Helm's kind order: known kinds by install order, then unknown kinds alphabetically. */
  public static final Comparator<String> BY_KIND = (a, b) -> {
    Integer ra = RANK.get(a);
    Integer rb = RANK.get(b);
    if (ra == null && rb == null) {
      return goCompare(a, b);
    }
    if (ra == null) {
      return 1;
    }
    if (rb == null) {
      return -1;
    }
    return Integer.compare(ra, rb);
  };

  private HelmOrder() {}

  private static Map<String, Integer> rank() {
    Map<String, Integer> m = new HashMap<>();
    for (int i = 0; i < INSTALL_ORDER.size(); i++) {
      m.put(INSTALL_ORDER.get(i), i);
    }
    return Map.copyOf(m);
  }

  /**
   * The hooks of one event in the order Helm runs them, from the order they appear in. Hooks equal in
   * kind, weight and name keep that order; across template files Helm's own order for them is not fixed.
   * Hooks whose weight is a template expression have no known place; callers leave them out.
   */
  public static List<HelmHook> sort(List<HelmHook> hooks) {
    List<HelmHook> out = new ArrayList<>(hooks);
    // List.sort is stable, as Go's sort.SliceStable and sort.Stable are.
    out.sort(Comparator.comparing(HelmHook::kind, BY_KIND));
    out.sort(Comparator.comparingLong((HelmHook h) -> h.weight().orElse(0))
        .thenComparing(HelmHook::name, HelmOrder::goCompare));
    return out;
  }

  /** Whether Helm's install order puts kind {@code a} strictly before kind {@code b}. */
  public static boolean kindBefore(String a, String b) {
    return BY_KIND.compare(a, b) < 0;
  }

  /** Go's string comparison: byte-wise over UTF-8. */
  private static int goCompare(String a, String b) {
    return Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }
}
