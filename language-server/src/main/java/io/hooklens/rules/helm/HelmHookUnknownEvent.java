package io.hooklens.rules.helm;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.helm.HelmAnnotations;
import io.hooklens.core.model.helm.HelmEvent;
import io.hooklens.core.model.helm.RegisteredHooks;
import io.hooklens.core.yaml.ParseProblem;
import io.hooklens.core.yaml.YScalar;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

@RuleInfo(
    id = "HL201",
    name = "helm-hook-unknown-event",
    summary = "helm.sh/hook names an event Helm does not know, so Helm skips the whole resource",
    severity = Severity.ERROR,
    fixable = true,
    remediation = "Use only pre-install, post-install, pre-upgrade, post-upgrade, pre-delete, post-delete,"
        + " pre-rollback, post-rollback or test, separated by commas.",
    messages = {
        @Message(id = "unknown", text = "Unknown hook event \"{0}\". Helm skips this whole resource: it is installed"
            + " neither as a hook nor as a normal resource."),
        @Message(id = "unknownNear", text = "Unknown hook event \"{0}\"; did you mean {1}? Helm skips this whole"
            + " resource: it is installed neither as a hook nor as a normal resource."),
        @Message(id = "unknownArgo", text = "Unknown hook event \"{0}\"{1}. Argo CD renders charts with helm"
            + " template, which drops this whole resource as Helm does: Argo CD never sees it, as a hook or as a"
            + " normal resource."),
        @Message(id = "emptyItem", text = "helm.sh/hook has an empty item (a stray comma), which Helm reads as an"
            + " unknown event. Helm skips this whole resource: it is installed neither as a hook nor as a normal"
            + " resource."),
        @Message(id = "skipped", text = "Helm skips a resource whose helm.sh/hook, written by a template action, is"
            + " \"{0}\": an event it does not know. The resource is installed neither as a hook nor as a normal"
            + " resource, and is not checked."),
        @Message(id = "emptyItemArgo", text = "helm.sh/hook has an empty item (a stray comma), which Helm reads as an"
            + " unknown event. Argo CD renders charts with helm template, which drops this whole resource: Argo CD"
            + " never sees it, as a hook or as a normal resource.")
    })
public final class HelmHookUnknownEvent implements Rule {
  /** Helm 2 events with rules of their own (HL202, HL203). */
  private static final Set<String> HELM2_EVENTS = Set.of("crd-install", "test-failure");

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (ParseProblem p : doc.parsed().problems()) {
      if (p.kind() == ParseProblem.Kind.SKIPPED_HOOK) {
        ctx.report(p.range(), "skipped", p.message());
      }
    }
    boolean argo = ctx.targets().argoCd();
    for (Resource r : doc.resources()) {
      YScalar v = HelmAnnotations.annotation(r, HelmAnnotations.HOOK);
      if (v == null || v.isTemplated() || !RegisteredHooks.readByHelm(doc, r)) {
        continue;
      }
      List<HelmAnnotations.Item> items = RegisteredHooks.items(v);
      if (items.stream().allMatch(i -> i.normalized().isEmpty())) {
        continue; // an empty value is HL205's
      }
      Set<String> reported = new LinkedHashSet<>();
      for (HelmAnnotations.Item i : items) {
        String event = i.normalized();
        if (HelmEvent.SPELLINGS.contains(event) || HELM2_EVENTS.contains(event) || !reported.add(event)) {
          continue;
        }
        if (event.isEmpty()) {
          ctx.report(v, argo ? "emptyItemArgo" : "emptyItem");
          continue;
        }
        List<String> near = suggestions(event);
        RuleContext.Reported finding;
        if (argo) {
          String hint = near.isEmpty() ? "" : " (did you mean " + quoted(near) + "?)";
          finding = ctx.report(v, "unknownArgo", i.raw().trim(), hint);
        } else if (near.isEmpty()) {
          finding = ctx.report(v, "unknown", i.raw().trim());
        } else {
          finding = ctx.report(v, "unknownNear", i.raw().trim(), quoted(near));
        }
        // One candidate is the typo's correction; of several, the author has to choose.
        for (String n : near) {
          finding.fix(HelmFixes.title(i.raw().trim(), n), near.size() == 1, HelmFixes.replaceItem(ctx, v, event, n));
        }
      }
    }
  }

  private static String quoted(List<String> near) {
    return near.stream().map(s -> "\"" + s + "\"").collect(Collectors.joining(" or "));
  }

  /** The nearest events; the deprecated alias test-success is offered as test. */
  private static List<String> suggestions(String event) {
    return HelmAnnotations.nearest(event, HelmEvent.SPELLINGS).stream()
        .map(s -> s.equals(HelmEvent.TEST_SUCCESS) ? HelmEvent.TEST.annotation() : s)
        .distinct()
        .toList();
  }
}
