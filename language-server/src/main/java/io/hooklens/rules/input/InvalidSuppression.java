package io.hooklens.rules.input;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Suppression;

@RuleInfo(
    id = "HL004",
    name = "invalid-suppression",
    summary = "A suppression comment or annotation lacks a reason or names no known rule",
    severity = Severity.WARNING,
    remediation = "Write the rule id and why the finding does not apply, e.g."
        + " `# hooklens:ignore HL401 drained by the load balancer first`, or give the annotation the reason as its"
        + " value.",
    messages = {
        @Message(id = "noRule", text = "This suppression names no rule; write the id to ignore, e.g. HL401."),
        @Message(id = "unknownRule", text = "\"{0}\" is not a hooklens rule id, name or pattern."),
        @Message(id = "noReason", text = "Suppressing {0} needs a reason after the rule id, so that reviewers know why."),
        @Message(id = "noAnnotationReason",
            text = "Suppressing {0} needs a reason as the annotation's value, so that reviewers know why.")
    })
public final class InvalidSuppression implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Suppression s : doc.suppressions()) {
      if (s.ruleIds().isEmpty()) {
        ctx.report(s.range(), "noRule");
        continue;
      }
      for (String id : s.ruleIds()) {
        if (!ctx.isKnownRule(id)) {
          ctx.report(s.range(), "unknownRule", id);
        }
      }
      // The suppression still applies: asking for its reason is enough, where the findings it hides would flood.
      if (s.reason().isEmpty()) {
        ctx.report(s.range(), s.object() == null ? "noReason" : "noAnnotationReason", String.join(",", s.ruleIds()));
      }
    }
  }
}
