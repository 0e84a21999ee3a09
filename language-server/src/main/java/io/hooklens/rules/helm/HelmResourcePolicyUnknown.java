package io.hooklens.rules.helm;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.helm.HelmAnnotations;
import io.hooklens.core.yaml.YScalar;
import java.util.Locale;

@RuleInfo(
    id = "HL219",
    name = "helm-resource-policy-unknown",
    summary = "helm.sh/resource-policy is not exactly keep",
    severity = Severity.WARNING,
    remediation = "Write helm.sh/resource-policy: keep exactly, or remove the annotation.",
    messages = {
        @Message(id = "unknown", text = "Helm recognises only \"keep\"; with \"{0}\" helm uninstall leaves this"
            + " resource behind without listing it as kept, and helm upgrade deletes it once it leaves the chart."),
        @Message(id = "unknownOnHook", text = "Helm recognises only \"keep\"; \"{0}\" has no effect."),
        @Message(id = "inexact", text = "helm uninstall reads \"{0}\" as keep, but helm upgrade compares the value"
            + " exactly: when this resource leaves the chart, the upgrade deletes it. Write keep."),
        @Message(id = "unknownArgo", text = "Argo CD recognises only \"keep\" (compared exactly, spaces aside); with"
            + " \"{0}\" deleting the Application deletes this resource too.")
    })
public final class HelmResourcePolicyUnknown implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Resource r : doc.resources()) {
      YScalar v = r.parent() == null ? HelmAnnotations.annotation(r, HelmAnnotations.RESOURCE_POLICY) : null;
      // A null or non-string value is HL207's finding; a template expression is unknown.
      if (v == null || v.type() != YScalar.Type.STRING || v.isTemplated() || v.value().equals(HelmAnnotations.KEEP)) {
        continue;
      }
      boolean hook = HelmAnnotations.annotation(r, HelmAnnotations.HOOK) != null;
      if (ctx.targets().argoCd() && !hook) {
        // Argo CD reads the value only when the Application is deleted, as a comma-separated list.
        if (!ArgoCdHooks.items(v).contains(HelmAnnotations.KEEP)) {
          ctx.report(v, "unknownArgo", v.value());
        }
      } else if (!v.value().trim().toLowerCase(Locale.ROOT).equals(HelmAnnotations.KEEP)) {
        ctx.report(v, hook ? "unknownOnHook" : "unknown", v.value());
      } else if (!hook) {
        ctx.report(v, "inexact", v.value());
      }
    }
  }
}
