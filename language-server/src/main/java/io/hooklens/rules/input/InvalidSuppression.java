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
    summary = "A hooklens:ignore comment lacks a reason or names no known rule",
    severity = Severity.WARNING,
    remediation = "Write the rule id and why the finding does not apply, e.g."
        + " `# hooklens:ignore HL401 drained by the load balancer first`.",
    messages = {
        @Message(id = "noRule", text = "This suppression names no rule; write the id to ignore, e.g. HL401."),
        @Message(id = "unknownRule", text = "\"{0}\" is not a hooklens rule id, name or pattern."),
        @Message(id = "noReason", text = "Suppressing {0} needs a reason after the rule id, so that reviewers know why.")
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
      if (s.reason().isEmpty()) {
        ctx.report(s.range(), "noReason", String.join(",", s.ruleIds()));
      }
    }
  }
}
