package io.hooklens.rules.helm;

import io.hooklens.core.model.Resource;
import io.hooklens.core.model.helm.DeletePolicy;
import io.hooklens.core.model.helm.HelmAnnotations;
import io.hooklens.core.model.helm.HelmEvent;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YScalar;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What Argo CD (3.3 and later) makes of the Helm hook annotations of a rendered chart. Argo CD renders
 * with {@code helm template}, which already drops documents with an event Helm does not know, then runs
 * hooks itself: {@code pre-install} and {@code pre-upgrade} in its PreSync phase, {@code post-install} and
 * {@code post-upgrade} in PostSync, {@code pre-delete} and {@code post-delete} when the Application is
 * deleted. Other Helm events are not run, and a resource with none of these events is not applied at all.
 * Items are trimmed but, unlike in Helm, not lower-cased. {@code helm.sh/hook-weight} is the sync wave of
 * any resource, and unknown delete policies are dropped, so the default BeforeHookCreation still applies.
 * An {@code argocd.argoproj.io/hook} annotation replaces the Helm events altogether.
 */
final class ArgoCdHooks {
  static final String ARGO_HOOK = "argocd.argoproj.io/hook";
  static final String ARGO_DELETE_POLICY = "argocd.argoproj.io/hook-delete-policy";

  /** Argo CD's own delete policies, by the Helm policy each matches. */
  private static final Map<String, DeletePolicy> ARGO_POLICIES = Map.of("BeforeHookCreation",
      DeletePolicy.BEFORE_HOOK_CREATION, "HookSucceeded", DeletePolicy.HOOK_SUCCEEDED, "HookFailed",
      DeletePolicy.HOOK_FAILED);

  /** The Helm events Argo CD runs, and its phase for each. */
  static final Map<String, String> PHASES = Map.of(
      HelmEvent.PRE_INSTALL.annotation(), "PreSync", HelmEvent.PRE_UPGRADE.annotation(), "PreSync",
      HelmEvent.POST_INSTALL.annotation(), "PostSync", HelmEvent.POST_UPGRADE.annotation(), "PostSync",
      HelmEvent.PRE_DELETE.annotation(), "PreDelete", HelmEvent.POST_DELETE.annotation(), "PostDelete");

  private ArgoCdHooks() {}

  /** The items of a list annotation as Argo CD reads them: trimmed, empty ones dropped, each once. */
  static List<String> items(YScalar value) {
    Set<String> out = new LinkedHashSet<>();
    if (value != null && value.type() != YScalar.Type.NULL) {
      for (String part : value.value().split(",", -1)) {
        if (!part.trim().isEmpty()) {
          out.add(part.trim());
        }
      }
    }
    return List.copyOf(out);
  }

  /** Whether Argo CD reads the resource's Helm hook events: it has no hook annotation of Argo CD's own. */
  static boolean readsHelmEvents(Resource r) {
    YMap a = r.annotations();
    return a != null && !a.has(ARGO_HOOK) && a.has(HelmAnnotations.HOOK);
  }

  /** The Helm events of a resource that Argo CD runs, as written; empty when it runs none. */
  static List<String> runEvents(Resource r) {
    if (!readsHelmEvents(r)) {
      return List.of();
    }
    return items(HelmAnnotations.annotation(r, HelmAnnotations.HOOK)).stream().filter(PHASES::containsKey).toList();
  }

  /**
   * The delete policies Argo CD applies to a hook, in Helm's names: the known items of its own annotation
   * and of Helm's, compared exactly, or before-hook-creation when there are none. Null when a value is a
   * template expression.
   */
  static Set<String> deletePolicies(Resource r) {
    YScalar helm = HelmAnnotations.annotation(r, HelmAnnotations.DELETE_POLICY);
    YScalar argo = HelmAnnotations.annotation(r, ARGO_DELETE_POLICY);
    if ((helm != null && helm.isTemplated()) || (argo != null && argo.isTemplated())) {
      return null;
    }
    Set<String> out = new LinkedHashSet<>();
    for (String item : items(argo)) {
      if (ARGO_POLICIES.containsKey(item)) {
        out.add(ARGO_POLICIES.get(item).annotation());
      }
    }
    for (String item : items(helm)) {
      if (DeletePolicy.SPELLINGS.contains(item)) {
        out.add(item);
      }
    }
    return out.isEmpty() ? Set.of(DeletePolicy.DEFAULT.annotation()) : out;
  }

  /** The phases Argo CD runs the given Helm events in, each once, in order. */
  static List<String> phases(List<String> events) {
    List<String> out = new ArrayList<>();
    for (String e : events) {
      String p = PHASES.get(e);
      if (p != null && !out.contains(p)) {
        out.add(p);
      }
    }
    return out;
  }
}
