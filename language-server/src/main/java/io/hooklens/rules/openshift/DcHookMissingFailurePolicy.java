package io.hooklens.rules.openshift;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.yaml.YMap;

@RuleInfo(
    id = "HL301",
    name = "dc-hook-missing-failure-policy",
    summary = "A DeploymentConfig hook has no failurePolicy",
    severity = Severity.ERROR,
    remediation = "Set failurePolicy: Abort for a pre or mid hook that must succeed, Ignore for a post hook, or"
        + " Retry to restart the hook pod until it succeeds.",
    messages = {
        @Message(id = "missing", text = "{0} has no failurePolicy; the API requires one (Abort, Retry or Ignore)"
            + " and rejects the DeploymentConfig."),
        @Message(id = "empty", text = "{0}.failurePolicy is empty; the API requires Abort, Retry or Ignore and"
            + " rejects the DeploymentConfig.")
    })
public final class DcHookMissingFailurePolicy implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (DcHook h : DcHook.validatedIn(doc)) {
      if (h.hook() == null) {
        continue;
      }
      YMap.Entry policy = h.hook().entry("failurePolicy");
      if (policy == null) {
        ctx.report(h.key(), "missing", h.describe());
      } else if (DcHook.isBlank(policy.value())) {
        ctx.report(policy.key(), "empty", h.describe());
      }
    }
  }
}
