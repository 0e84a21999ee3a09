package io.hooklens.rules.helm;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.helm.HelmAnnotations;
import io.hooklens.core.model.helm.HelmHook;
import io.hooklens.core.model.helm.OutputLogPolicy;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YScalar;
import java.util.List;

@RuleInfo(
    id = "HL217",
    name = "helm-hook-output-log-policy",
    summary = "helm.sh/hook-output-log-policy is on a kind Helm collects no logs for, or has an unknown value",
    severity = Severity.WARNING,
    remediation = "Use hook-succeeded and/or hook-failed, on a Job or Pod hook only, or remove the annotation.",
    messages = {
        @Message(id = "kind", text = "Helm collects hook logs only from Jobs and Pods; the output-log policy is"
            + " ignored on a {0}."),
        @Message(id = "unknown", text = "Unknown output-log policy \"{0}\"{1}; Helm knows only hook-succeeded and"
            + " hook-failed, so this item is ignored."),
        @Message(id = "empty", text = "The output-log policy is empty; Helm ignores it."),
        @Message(id = "argo", text = "Argo CD runs hooks itself and never prints their logs, so"
            + " helm.sh/hook-output-log-policy has no effect.")
    })
public final class HelmHookOutputLogPolicyIgnored implements Rule {
  /** In a fixed order, so that suggestions are listed the same way every run. */
  private static final List<String> POLICIES = OutputLogPolicy.SPELLINGS;

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (HelmHook h : HelmHook.in(doc)) {
      YMap.Entry e = HelmAnnotations.entry(h.resource(), HelmAnnotations.OUTPUT_LOG_POLICY);
      if (e == null || !(e.value() instanceof YScalar value) || value.isTemplated()) {
        continue;
      }
      if (ctx.targets().argoCd()) {
        // Nothing breaks, the logs are merely elsewhere.
        ctx.report(e.key(), "argo").severity(Severity.INFO);
        continue;
      }
      if (!h.isAwaited()) {
        ctx.report(e.key(), "kind", h.kind().isEmpty() ? "resource without a kind" : h.kind());
        continue;
      }
      List<HelmAnnotations.Item> items = HelmAnnotations.items(value);
      if (items.stream().allMatch(i -> i.normalized().isEmpty())) {
        ctx.report(value, "empty");
        continue;
      }
      for (HelmAnnotations.Item item : items) {
        String v = item.normalized();
        if (!v.isEmpty() && !POLICIES.contains(v)) {
          List<String> near = HelmAnnotations.nearest(v, POLICIES);
          String hint = near.isEmpty() ? "" : " (did you mean \"" + String.join("\" or \"", near) + "\"?)";
          ctx.report(value, "unknown", item.raw().trim(), hint);
        }
      }
    }
  }
}
