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
import io.hooklens.core.model.helm.RegisteredHooks;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YScalar;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

@RuleInfo(
    id = "HL208",
    name = "helm-hook-delete-policy-unknown",
    summary = "helm.sh/hook-delete-policy names a policy Helm does not know",
    severity = Severity.ERROR,
    fixable = true,
    remediation = "Use only before-hook-creation, hook-succeeded or hook-failed, separated by commas.",
    messages = {
        @Message(id = "unknown", text = "Unknown delete policy \"{0}\"; Helm ignores it."),
        @Message(id = "unknownNear", text = "Unknown delete policy \"{0}\"; did you mean {1}? Helm ignores it."),
        @Message(id = "unknownAlone", text = "Unknown delete policy \"{0}\"; Helm ignores it, and because the list"
            + " is not empty it no longer applies the default before-hook-creation either."),
        @Message(id = "unknownAloneNear", text = "Unknown delete policy \"{0}\"; did you mean {1}? Helm ignores it,"
            + " and because the list is not empty it no longer applies the default before-hook-creation either."),
        @Message(id = "empty", text = "helm.sh/hook-delete-policy names no policy, yet Helm counts the empty value"
            + " as one: it no longer applies the default before-hook-creation. Remove the annotation or name a"
            + " policy."),
        @Message(id = "unknownArgo", text = "Argo CD does not know the delete policy \"{0}\"{1} and ignores it."),
        @Message(id = "unknownAloneArgo", text = "Argo CD does not know the delete policy \"{0}\"{1} and ignores it;"
            + " with no policy it knows, it applies its default, before-hook-creation, instead.")
    })
public final class HelmHookDeletePolicyUnknown implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Resource r : doc.resources()) {
      YMap.Entry e = HelmAnnotations.entry(r, HelmAnnotations.DELETE_POLICY);
      if (e == null || !(e.value() instanceof YScalar v) || v.isTemplated() || !RegisteredHooks.hasHookKey(r)
          || !RegisteredHooks.readByHelm(doc, r)) {
        continue;
      }
      if (ctx.targets().argoCd()) {
        checkArgoCd(ctx, r, v);
        continue;
      }
      List<HelmAnnotations.Item> items = RegisteredHooks.items(v);
      boolean anyKnown = items.stream().anyMatch(i -> DeletePolicy.SPELLINGS.contains(i.normalized()));
      if (!anyKnown && items.stream().allMatch(i -> i.normalized().isEmpty())) {
        ctx.report(FindingPlaces.valueOrKey(e), "empty");
        continue;
      }
      Set<String> reported = new HashSet<>();
      for (HelmAnnotations.Item i : items) {
        String policy = i.normalized();
        // A stray comma next to a known policy changes nothing: the list is not empty either way.
        if (policy.isEmpty() || DeletePolicy.SPELLINGS.contains(policy) || !reported.add(policy)) {
          continue;
        }
        List<String> near = HelmAnnotations.nearest(policy, DeletePolicy.SPELLINGS);
        String suffix = anyKnown ? "" : "Alone";
        if (near.isEmpty()) {
          ctx.report(v, "unknown" + suffix, i.raw().trim());
        } else {
          fixes(ctx, ctx.report(v, "unknown" + suffix + "Near", i.raw().trim(), quoted(near)), v, i.raw().trim(),
              near);
        }
      }
    }
  }

  /**
   * Argo CD compares trimmed items exactly, drops the empty ones, and applies its default whenever no item
   * is known; an item Helm would lower-case into a known policy is HL225's to report.
   */
  private static void checkArgoCd(RuleContext ctx, Resource r, YScalar v) {
    if (!ArgoCdHooks.readsHelmEvents(r) || ArgoCdHooks.runEvents(r).isEmpty()) {
      return;
    }
    List<String> items = ArgoCdHooks.items(v);
    boolean anyKnown = items.stream().anyMatch(DeletePolicy.SPELLINGS::contains);
    for (String item : items) {
      String lower = item.toLowerCase(Locale.ROOT);
      if (DeletePolicy.SPELLINGS.contains(item) || DeletePolicy.SPELLINGS.contains(lower)) {
        continue;
      }
      List<String> near = HelmAnnotations.nearest(lower, DeletePolicy.SPELLINGS);
      String hint = near.isEmpty() ? "" : " (did you mean " + quoted(near) + "?)";
      fixes(ctx, ctx.report(v, anyKnown ? "unknownArgo" : "unknownAloneArgo", item, hint), v, item, near);
    }
  }

  /** One candidate is the typo's correction; of several, the author has to choose. */
  private static void fixes(RuleContext ctx, RuleContext.Reported reported, YScalar v, String written,
      List<String> near) {
    String normalized = written.toLowerCase(Locale.ROOT);
    for (String n : near) {
      reported.fix(HelmFixes.title(written, n), near.size() == 1, HelmFixes.replaceItem(ctx, v, normalized, n));
    }
  }

  private static String quoted(List<String> near) {
    return near.stream().map(s -> "\"" + s + "\"").collect(Collectors.joining(" or "));
  }
}
