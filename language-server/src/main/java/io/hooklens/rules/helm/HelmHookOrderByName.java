package io.hooklens.rules.helm;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.PodSpec;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.helm.HelmAnnotations;
import io.hooklens.core.model.helm.HelmEvent;
import io.hooklens.core.model.helm.HelmHook;
import io.hooklens.core.model.helm.HelmOrder;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YScalar;
import io.hooklens.core.yaml.YSeq;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

@RuleInfo(
    id = "HL221",
    name = "helm-hook-order-by-name",
    summary = "A hook Job or Pod runs before a hook it needs because Helm orders equal weights by name, not kind",
    severity = Severity.WARNING,
    remediation = "Give the hook that must exist first a lower helm.sh/hook-weight than the Job or Pod that needs"
        + " it.",
    messages = @Message(id = "byName", text = "{3} runs hooks of equal weight in name order, not in kind order as"
        + " Helm's docs say: in {0}, {1} runs and is waited for before {2}, which it needs, is created. Give {2} a"
        + " lower helm.sh/hook-weight."))
public final class HelmHookOrderByName implements Rule {
  /** The Jobs and Pods that run too early for one hook, and in which events. */
  private record Late(List<HelmHook> runsFirst, Set<HelmEvent> events) {}

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    // Argo CD orders the hooks of one sync wave by kind, then name: the dependency is created first.
    if (ctx.targets().argoCd()) {
      return;
    }
    Map<HelmEvent, List<HelmHook>> byEvent = new LinkedHashMap<>();
    for (HelmHook h : HelmHook.in(doc)) {
      // A templated kind, name or weight could put the hook anywhere.
      if (h.placeKnown()) {
        for (HelmEvent e : new LinkedHashSet<>(h.events())) {
          byEvent.computeIfAbsent(e, k -> new ArrayList<>()).add(h);
        }
      }
    }
    Map<HelmHook, Late> late = new IdentityHashMap<>();
    List<HelmHook> reportOrder = new ArrayList<>();
    for (var e : byEvent.entrySet()) {
      List<HelmHook> ordered = HelmOrder.sort(e.getValue());
      for (int i = 0; i < ordered.size(); i++) {
        HelmHook first = ordered.get(i);
        // Only an awaited hook blocks: Helm creates the others one right after another.
        PodSpec pod = first.isAwaited() ? first.podSpec(doc) : null;
        if (pod == null) {
          continue;
        }
        long weight = first.weight().getAsLong();
        for (int j = i + 1; j < ordered.size() && ordered.get(j).weight().getAsLong() == weight; j++) {
          HelmHook later = ordered.get(j);
          if (!later.isAwaited() && HelmOrder.kindBefore(later.kind(), first.kind()) && needs(doc, first, pod, later)) {
            Late l = late.computeIfAbsent(later, k -> {
              reportOrder.add(k);
              return new Late(new ArrayList<>(), new LinkedHashSet<>());
            });
            if (l.runsFirst().stream().noneMatch(x -> x == first)) {
              l.runsFirst().add(first);
            }
            l.events().add(e.getKey());
          }
        }
      }
    }
    for (HelmHook h : reportOrder) {
      Late l = late.get(h);
      YScalar weight = HelmAnnotations.annotation(h.resource(), HelmAnnotations.WEIGHT);
      List<String> names = l.runsFirst().stream().map(x -> x.resource().displayName()).toList();
      var reported = ctx.report(weight != null ? weight : h.hookValue(), "byName",
          String.join(", ", l.events().stream().map(HelmEvent::annotation).toList()),
          String.join(" and ", names), h.resource().displayName(), HookRunner.name(ctx.targets()));
      for (HelmHook x : l.runsFirst()) {
        reported.related(x.hookValue(), "runs first");
      }
    }
  }

  /**
   * Whether the pod of {@code job} depends on {@code dep}: it runs as that service account, is bound to
   * a role through it, lives in that namespace, or names the object anywhere in its spec (a ConfigMap,
   * Secret or claim it mounts, a priority class).
   */
  private static boolean needs(HookDocument doc, HelmHook job, PodSpec pod, HelmHook dep) {
    String name = dep.name();
    if (name.isEmpty()) {
      return false;
    }
    String account = serviceAccount(pod);
    return switch (dep.kind()) {
      case "RoleBinding", "ClusterRoleBinding" -> binds(dep.resource(), account);
      case "Role", "ClusterRole" -> doc.resources().stream()
          .anyMatch(b -> isBindingOf(b, dep.kind(), name) && binds(b, account));
      case "Namespace" -> name.equals(job.resource().namespace());
      default -> mentions(pod.node(), name);
    };
  }

  private static String serviceAccount(PodSpec pod) {
    String sa = pod.node().string("serviceAccountName");
    if (sa == null) {
      sa = pod.node().string("serviceAccount");
    }
    return sa == null ? "default" : sa;
  }

  private static boolean isBindingOf(Resource b, String roleKind, String roleName) {
    YMap ref = b.root().map("roleRef");
    return ("RoleBinding".equals(b.kind()) || "ClusterRoleBinding".equals(b.kind())) && ref != null
        && roleKind.equals(ref.string("kind")) && roleName.equals(ref.string("name"));
  }

  private static boolean binds(Resource binding, String account) {
    YSeq subjects = binding.root().seq("subjects");
    if (subjects == null) {
      return false;
    }
    for (YNode s : subjects.items()) {
      if (s instanceof YMap m && "ServiceAccount".equals(m.string("kind")) && account.equals(m.string("name"))) {
        return true;
      }
    }
    return false;
  }

  private static boolean mentions(YNode root, String name) {
    Set<YNode> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    Deque<YNode> todo = new ArrayDeque<>(List.of(root));
    while (!todo.isEmpty()) {
      YNode n = todo.pop();
      if (!seen.add(n)) {
        continue;
      }
      if (n instanceof YScalar s && s.value().equals(name)) {
        return true;
      } else if (n instanceof YMap m) {
        m.entries().forEach(e -> todo.push(e.value()));
      } else if (n instanceof YSeq q) {
        q.items().forEach(todo::push);
      }
    }
    return false;
  }
}
