package io.hooklens.rules.helm;

import io.hooklens.core.model.HookDocument;
import io.hooklens.core.yaml.Range;
import java.util.ArrayList;
import java.util.List;

/**
 * The hooks of a rendered chart or manifest file in the order Helm runs them, event by event: sorted as
 * {@link HelmOrder} says, with the delete policies Helm applies and whether it waits for each. The values
 * are read as Helm reads rendered text: a weight that is not an integer counts as 0.
 */
public final class HookPlan {
  /** Helm's events in the order of a release's life: install, delete, upgrade, rollback, test. */
  public static final List<String> EVENTS = List.of("pre-install", "post-install", "pre-delete", "post-delete",
      "pre-upgrade", "post-upgrade", "pre-rollback", "post-rollback", HelmHook.TEST);

  /**
   * One hook at its place in an event.
   *
   * @param deletePolicies the known policies Helm applies, in the order written
   * @param defaultPolicy whether no delete policy is written, so that Helm applies before-hook-creation
   * @param awaited whether Helm waits for the hook to finish: only Jobs and Pods
   * @param source the hook's {@code helm.sh/hook} value, where it is shown to come from
   */
  public record Step(String kind, String name, long weight, List<String> deletePolicies, boolean defaultPolicy,
      boolean awaited, Range source) {}

  /** One event and its hooks in order; none when nothing runs in it. */
  public record Event(String name, List<Step> steps) {}

  private HookPlan() {}

  /** Every event of {@link #EVENTS}, with the document's hooks in Helm's order. */
  public static List<Event> of(HookDocument doc) {
    List<HelmHook> hooks = HelmHook.in(doc).stream()
        .filter(h -> RegisteredHooks.readByHelm(doc, h.resource()))
        .toList();
    List<Event> out = new ArrayList<>();
    for (String event : EVENTS) {
      // An event listed twice on one hook registers it twice, and Helm runs it twice.
      List<HelmHook> inEvent = new ArrayList<>();
      for (HelmHook h : hooks) {
        h.events().stream().filter(event::equals).forEach(e -> inEvent.add(h));
      }
      out.add(new Event(event, HelmOrder.sort(inEvent).stream().map(HookPlan::step).toList()));
    }
    return List.copyOf(out);
  }

  private static Step step(HelmHook h) {
    List<String> policies = h.deletePolicies();
    return new Step(h.kind(), h.name(), HelmAnnotations.weight(h.resource()), policies == null ? List.of() : policies,
        HelmAnnotations.entry(h.resource(), HelmAnnotations.DELETE_POLICY) == null, h.isAwaited(),
        h.hookValue().range());
  }
}
