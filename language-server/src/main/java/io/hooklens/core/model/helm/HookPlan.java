package io.hooklens.core.model.helm;

import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.yaml.Range;
import io.hooklens.core.yaml.YScalar;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The hooks of a rendered chart or manifest file in the order Helm runs them, event by event: sorted as
 * {@link HelmOrder} says, with the delete policies Helm applies and whether it waits for each. The values
 * are read as Helm reads rendered text: a weight that is not an integer counts as 0.
 */
public final class HookPlan {
  /**
   * One hook at its place in an event.
   *
   * @param deletePolicies the known policies Helm applies, in the order written
   * @param defaultPolicy whether no delete policy is written, so that Helm applies before-hook-creation
   * @param awaited whether Helm waits for the hook to finish: only Jobs and Pods
   * @param source the hook's {@code helm.sh/hook} value, where it is shown to come from
   * @param resource the object the hook creates, as written
   */
  public record Step(String kind, String name, long weight, List<DeletePolicy> deletePolicies, boolean defaultPolicy,
      boolean awaited, Range source, Resource resource) {

    /** The delete policies as the annotation writes them. */
    public List<String> deletePolicyNames() {
      return deletePolicies.stream().map(DeletePolicy::annotation).toList();
    }

    /** The {@code helm.sh/hook-output-log-policy} values Helm honours for this hook: only for Jobs and Pods. */
    public List<OutputLogPolicy> outputLogPolicies() {
      if (!awaited) {
        return List.of();
      }
      return HelmAnnotations.items(HelmAnnotations.annotation(resource, HelmAnnotations.OUTPUT_LOG_POLICY)).stream()
          .map(i -> OutputLogPolicy.parse(i.normalized())).filter(Objects::nonNull).distinct().toList();
    }
  }

  /** One event and its hooks in order; none when nothing runs in it. */
  public record Event(String name, List<Step> steps) {}

  /**
   * Where one hook runs in one of its events, among the hooks of its document.
   *
   * @param order the event's hooks in Helm's order, this one included
   * @param position this hook's 1-based place in {@code order}
   * @param certain false when a template value could change the place once rendered: another hook's weight, or
   *     an equal weight with a name that differs from this one's only inside template actions
   */
  public record Place(String event, List<Resource> order, int position, long weight, boolean certain) {}

  private HookPlan() {}

  /** Every {@link HelmEvent}, with the document's hooks in Helm's order. */
  public static List<Event> of(HookDocument doc) {
    List<HelmHook> hooks = registered(doc);
    List<Event> out = new ArrayList<>();
    for (HelmEvent event : HelmEvent.values()) {
      out.add(new Event(event.annotation(), HelmOrder.sort(inEvent(hooks, event)).stream().map(HookPlan::step)
          .toList()));
    }
    return List.copyOf(out);
  }

  /**
   * The places of a resource's hook in each event it lists, in {@link HelmEvent} order (twice for an event listed
   * twice); none when Helm does not register it as a hook or its own weight is a template expression.
   */
  public static List<Place> places(HookDocument doc, Resource r) {
    HelmHook self = HelmHook.of(r);
    if (self == null || !RegisteredHooks.readByHelm(doc, r) || self.weight().isEmpty()) {
      return List.of();
    }
    List<HelmHook> hooks = registered(doc);
    List<Place> out = new ArrayList<>();
    for (HelmEvent event : HelmEvent.values()) {
      if (!self.events().contains(event)) {
        continue;
      }
      List<HelmHook> sorted = HelmOrder.sort(inEvent(hooks, event));
      boolean certain = sorted.stream().allMatch(h -> h.resource() == r || decided(doc, self, h));
      List<Resource> order = sorted.stream().map(HelmHook::resource).toList();
      for (int i = 0; i < order.size(); i++) {
        if (order.get(i) == r) {
          out.add(new Place(event.annotation(), order, i + 1, self.weight().getAsLong(), certain));
        }
      }
    }
    return out;
  }

  private static List<HelmHook> registered(HookDocument doc) {
    return HelmHook.in(doc).stream().filter(h -> RegisteredHooks.readByHelm(doc, h.resource())).toList();
  }

  /** The hooks of one event in file order; an event listed twice registers the hook twice, and Helm runs it twice. */
  private static List<HelmHook> inEvent(List<HelmHook> hooks, HelmEvent event) {
    List<HelmHook> out = new ArrayList<>();
    for (HelmHook h : hooks) {
      h.events().stream().filter(event::equals).forEach(e -> out.add(h));
    }
    return out;
  }

  /**
   * Whether the order of two hooks is known before rendering: different known weights, or equal weights and names
   * that differ outside template actions (two names made of the same {@code include} and different suffixes).
   */
  private static boolean decided(HookDocument doc, HelmHook a, HelmHook b) {
    if (b.weight().isEmpty()) {
      return false;
    }
    if (a.weight().getAsLong() != b.weight().getAsLong()) {
      return true;
    }
    String x = displayName(doc, a);
    String y = displayName(doc, b);
    int common = 0;
    while (common < Math.min(x.length(), y.length()) && x.charAt(common) == y.charAt(common)) {
      common++;
    }
    return literal(x.substring(common)) && literal(y.substring(common));
  }

  private static String displayName(HookDocument doc, HelmHook h) {
    YScalar name = h.resource().metadata() == null ? null : h.resource().metadata().scalar("name");
    return name == null ? "" : doc.parsed().display(name);
  }

  private static boolean literal(String s) {
    return !s.contains("{{") && !s.contains("}}");
  }

  private static Step step(HelmHook h) {
    List<DeletePolicy> policies = h.deletePolicies();
    return new Step(h.kind(), h.name(), HelmAnnotations.weight(h.resource()), policies == null ? List.of() : policies,
        HelmAnnotations.entry(h.resource(), HelmAnnotations.DELETE_POLICY) == null, h.isAwaited(),
        h.hookValue().range(), h.resource());
  }

  /**
   * The release's own objects, in the order Helm installs them: the top-level documents without a
   * {@code helm.sh/hook} annotation (a document with one is a hook, or skipped when Helm cannot read its events),
   * sorted by kind as Helm's install order says, stably.
   */
  public static List<Resource> releaseResources(HookDocument doc) {
    List<Resource> out = new ArrayList<>();
    for (Resource r : doc.resources()) {
      if (r.parent() == null && r.kind() != null && !RegisteredHooks.hasHookKey(r)) {
        out.add(r);
      }
    }
    out.sort((a, b) -> HelmOrder.BY_KIND.compare(a.kind(), b.kind()));
    return List.copyOf(out);
  }

  /** Whether {@code helm.sh/resource-policy: keep} tells Helm to leave the object behind on uninstall. */
  public static boolean kept(Resource r) {
    YScalar v = HelmAnnotations.annotation(r, HelmAnnotations.RESOURCE_POLICY);
    return v != null && v.type() != YScalar.Type.NULL && v.value().trim().equalsIgnoreCase(HelmAnnotations.KEEP);
  }
}
