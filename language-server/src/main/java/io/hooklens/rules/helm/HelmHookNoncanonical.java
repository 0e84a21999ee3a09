package io.hooklens.rules.helm;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.yaml.YScalar;
import java.util.Collection;

@RuleInfo(
    id = "HL225",
    name = "helm-hook-noncanonical",
    summary = "A hook event or policy is written in a case Helm has to normalise",
    severity = Severity.INFO,
    remediation = "Write hook events and policies in lower case, as Helm documents them.",
    messages = @Message(id = "case", text = "Helm lower-cases \"{0}\" to \"{1}\"; write it that way."))
public final class HelmHookNoncanonical implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Resource r : doc.resources()) {
      if (r.parent() != null) {
        continue;
      }
      check(ctx, HelmAnnotations.annotation(r, HelmAnnotations.HOOK), HelmAnnotations.EVENTS);
      check(ctx, HelmAnnotations.annotation(r, HelmAnnotations.DELETE_POLICY), HelmAnnotations.DELETE_POLICIES);
      check(ctx, HelmAnnotations.annotation(r, HelmAnnotations.OUTPUT_LOG_POLICY), HelmAnnotations.OUTPUT_LOG_POLICIES);
    }
  }

  /** Spaces around items are layout, not a spelling: Helm trims them and {@code a, b} is the common style. */
  private static void check(RuleContext ctx, YScalar value, Collection<String> known) {
    if (value == null || value.isTemplated()) {
      return;
    }
    for (HelmAnnotations.Item item : HelmAnnotations.items(value)) {
      String written = item.raw().trim();
      // Trimmed, the written item can differ from what Helm reads only by case.
      if (known.contains(item.normalized()) && !written.equals(item.normalized())) {
        ctx.report(value, "case", written, item.normalized());
      }
    }
  }
}
