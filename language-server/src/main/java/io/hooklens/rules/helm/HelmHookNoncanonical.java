package io.hooklens.rules.helm;

import static io.hooklens.core.model.helm.HelmAnnotations.annotation;

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
import io.hooklens.core.yaml.YScalar;
import java.util.Collection;

@RuleInfo(
    id = "HL225",
    name = "helm-hook-noncanonical",
    summary = "A hook event or policy is written in a case Helm has to normalise",
    severity = Severity.INFO,
    fixable = true,
    remediation = "Write hook events and policies in lower case, as Helm documents them.",
    messages = {
        @Message(id = "case", text = "Helm lower-cases \"{0}\" to \"{1}\"; write it that way."),
        @Message(id = "caseArgo", text = "Argo CD compares \"{0}\" exactly and does not know it, so it ignores"
            + " it (Helm would read {1}); write \"{1}\".")
    })
public final class HelmHookNoncanonical implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    boolean argo = ctx.targets().argoCd();
    for (Resource r : doc.resources()) {
      if (r.parent() != null) {
        continue;
      }
      // Argo CD reads no Helm hook annotation of a resource that has its own hook annotation.
      if (argo && !ArgoCdHooks.readsHelmEvents(r)) {
        continue;
      }
      check(ctx, annotation(r, HelmAnnotations.HOOK), HelmEvent.SPELLINGS, argo);
      check(ctx, annotation(r, HelmAnnotations.DELETE_POLICY), DeletePolicy.SPELLINGS, argo);
      // Argo CD ignores the output-log policy whatever its case (HL217).
      if (!argo) {
        check(ctx, annotation(r, HelmAnnotations.OUTPUT_LOG_POLICY), HelmAnnotations.OUTPUT_LOG_POLICIES, false);
      }
    }
  }

  /** Spaces around items are layout, not a spelling: both Helm and Argo CD trim them, and {@code a, b} is common. */
  private static void check(RuleContext ctx, YScalar value, Collection<String> known, boolean argo) {
    if (value == null || value.isTemplated()) {
      return;
    }
    for (HelmAnnotations.Item item : HelmAnnotations.items(value)) {
      String written = item.raw().trim();
      // Trimmed, the written item can differ from what Helm reads only by case.
      if (known.contains(item.normalized()) && !written.equals(item.normalized())) {
        RuleContext.Reported reported = argo
            ? ctx.report(value, "caseArgo", written, item.normalized()).severity(Severity.WARNING)
            : ctx.report(value, "case", written, item.normalized());
        reported.fix(HelmFixes.title(written, item.normalized()), true,
            HelmFixes.replaceItem(ctx, value, item.normalized(), item.normalized()));
      }
    }
  }
}
