package io.hooklens.rules.helm;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.helm.DeletePolicy;
import io.hooklens.core.model.helm.HelmAnnotations;
import io.hooklens.core.model.helm.HelmEvent;
import io.hooklens.core.model.helm.RegisteredHooks;
import io.hooklens.core.yaml.YNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

@RuleInfo(
    id = "HL210",
    name = "helm-hook-duplicate-identity",
    summary = "Two hooks of one event create the same object and the later one cannot replace the earlier",
    severity = Severity.ERROR,
    remediation = "Give each hook object its own name, or add before-hook-creation to the delete policies of the"
        + " hook that runs later.",
    messages = {
        @Message(id = "create", text = "This hook creates {0} again in {1}, after the hook at line {2}. That object"
            + " still exists (hook-succeeded cleanup runs only after the whole event) and this hook has no"
            + " before-hook-creation policy, so {3} fails to create it."),
        @Message(id = "apply", text = "This hook creates {0} again in {1}, after the hook at line {2}. That object"
            + " still exists (hook-succeeded cleanup runs only after the whole event) and this hook has no"
            + " before-hook-creation policy, so {3} applies it over the earlier object with server-side apply: a"
            + " changed Job or Pod is rejected, and an unchanged finished one does not run again."),
        @Message(id = "eventTwiceCreate", text = "helm.sh/hook lists {0} twice, so {1} runs this hook twice in that"
            + " event; without a before-hook-creation policy the second create meets the first object and fails."),
        @Message(id = "eventTwiceApply", text = "helm.sh/hook lists {0} twice, so {1} runs this hook twice in that"
            + " event; without a before-hook-creation policy the second run is applied over the first object and"
            + " a finished Job or Pod does not run again."),
        @Message(id = "argo", text = "This hook and the hook at line {1} both create {0}. Argo CD keeps only one"
            + " manifest per group, kind, namespace and name (it reports RepeatedResourceWarning), so one of the two"
            + " is dropped before the sync and never runs.")
    })
public final class HelmHookDuplicateIdentity implements Rule {
  /** A hook Helm registers, with what decides its place in an event's order. */
  private record Hook(Resource resource, List<HelmEvent> events, Optional<Long> weight, boolean replaces) {}

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    if (ctx.targets().argoCd()) {
      checkArgoCd(doc, ctx);
      return;
    }
    Map<RegisteredHooks.Identity, List<Hook>> byIdentity = new LinkedHashMap<>();
    for (Resource r : doc.resources()) {
      Optional<List<HelmEvent>> events = RegisteredHooks.events(r);
      if (events.isEmpty() || !RegisteredHooks.readByHelm(doc, r)) {
        continue;
      }
      RegisteredHooks.Identity id = RegisteredHooks.identity(r);
      Optional<Set<String>> policies = RegisteredHooks.deletePolicies(r);
      if (id == null || policies.isEmpty()) {
        continue;
      }
      Hook h = new Hook(r, events.get(), RegisteredHooks.weight(r),
          policies.get().contains(DeletePolicy.BEFORE_HOOK_CREATION.annotation()));
      byIdentity.computeIfAbsent(id, k -> new ArrayList<>()).add(h);
      if (!h.replaces()) {
        reportEventsListedTwice(ctx, h);
      }
    }
    for (var group : byIdentity.entrySet()) {
      if (group.getValue().size() > 1) {
        checkGroup(ctx, group.getKey(), group.getValue());
      }
    }
  }

  /**
   * Argo CD keeps one of the manifests with the same identity before it looks at hooks at all, whatever their
   * events and policies, so a test hook can push out a hook that would run; it reads an event listed twice
   * once.
   */
  private static void checkArgoCd(HookDocument doc, RuleContext ctx) {
    Map<RegisteredHooks.Identity, Resource> first = new LinkedHashMap<>();
    for (Resource r : doc.resources()) {
      if (!RegisteredHooks.readByHelm(doc, r) || RegisteredHooks.events(r).isEmpty()) {
        continue;
      }
      RegisteredHooks.Identity id = RegisteredHooks.identity(r);
      if (id == null) {
        continue;
      }
      Resource earlier = first.putIfAbsent(id, r);
      if (earlier != null) {
        YNode at = FindingPlaces.nameNode(earlier);
        ctx.report(FindingPlaces.nameNode(r), "argo", id.display(), at.range().start().line() + 1)
            .related(at, "the other hook creating " + id.display());
      }
    }
  }

  private static void reportEventsListedTwice(RuleContext ctx, Hook h) {
    Set<HelmEvent> seen = new LinkedHashSet<>();
    Set<HelmEvent> twice = new LinkedHashSet<>();
    for (HelmEvent e : h.events()) {
      if (!seen.add(e)) {
        twice.add(e);
      }
    }
    boolean apply = HookRunner.appliesServerSide(ctx.targets());
    for (HelmEvent e : twice) {
      ctx.report(HelmAnnotations.annotation(h.resource(), HelmAnnotations.HOOK),
          apply ? "eventTwiceApply" : "eventTwiceCreate", e.annotation(), HookRunner.name(ctx.targets()));
    }
  }

  /**
   * Per event, orders the hooks as Helm does (weight, then name, which is equal here, then the order of the
   * documents) and reports each hook without before-hook-creation that follows another.
   */
  private static void checkGroup(RuleContext ctx, RegisteredHooks.Identity id, List<Hook> hooks) {
    Map<Hook, Hook> earlierOf = new LinkedHashMap<>();
    Map<Hook, Set<HelmEvent>> eventsOf = new LinkedHashMap<>();
    Set<HelmEvent> events = new LinkedHashSet<>();
    hooks.forEach(h -> events.addAll(h.events()));
    for (HelmEvent event : events) {
      List<Hook> inEvent = hooks.stream().filter(h -> h.events().contains(event)).toList();
      if (inEvent.size() < 2) {
        continue;
      }
      if (inEvent.stream().allMatch(h -> h.weight().isPresent())) {
        List<Hook> ordered = new ArrayList<>(inEvent);
        ordered.sort(Comparator.comparingLong(h -> h.weight().get())); // stable: document order breaks ties
        for (int i = 1; i < ordered.size(); i++) {
          if (!ordered.get(i).replaces()) {
            earlierOf.putIfAbsent(ordered.get(i), ordered.get(i - 1));
            eventsOf.computeIfAbsent(ordered.get(i), k -> new LinkedHashSet<>()).add(event);
          }
        }
      } else if (inEvent.stream().noneMatch(Hook::replaces)) {
        // With a templated weight the order is unknown, but whichever hook runs later cannot replace the object.
        for (int i = 1; i < inEvent.size(); i++) {
          earlierOf.putIfAbsent(inEvent.get(i), inEvent.get(i - 1));
          eventsOf.computeIfAbsent(inEvent.get(i), k -> new LinkedHashSet<>()).add(event);
        }
      }
    }
    String message = HookRunner.appliesServerSide(ctx.targets()) ? "apply" : "create";
    for (var e : earlierOf.entrySet()) {
      YNode earlier = FindingPlaces.nameNode(e.getValue().resource());
      ctx.report(FindingPlaces.nameNode(e.getKey().resource()), message, id.display(),
          String.join(", ", eventsOf.get(e.getKey()).stream().map(HelmEvent::annotation).toList()),
          earlier.range().start().line() + 1,
          HookRunner.name(ctx.targets()))
          .related(earlier, "the earlier hook creating " + id.display());
    }
  }
}
