package io.hooklens.rules.openshift;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.openshift.DcHook;
import io.hooklens.core.model.openshift.DcPhase;
import io.hooklens.core.model.openshift.FailurePolicy;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YScalar;
import java.util.List;

@RuleInfo(
    id = "HL301",
    name = "dc-hook-missing-failure-policy",
    summary = "A DeploymentConfig hook has no failurePolicy",
    severity = Severity.ERROR,
    fixable = true,
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
      if (h.hook() == null || h.misspells("failurePolicy")) {
        continue;
      }
      YMap.Entry policy = h.hook().entry("failurePolicy");
      // Not applied by --fix: the policy is the author's choice; a post hook's Abort would roll back a live version.
      String suggested = (h.phase() == DcPhase.POST ? FailurePolicy.IGNORE : FailurePolicy.ABORT).value();
      String title = "Set failurePolicy: " + suggested;
      if (policy == null) {
        ctx.report(h.key(), "missing", h.describe())
            .fix(title, false, ctx.edits().insertString(h.hook(), "failurePolicy", suggested));
      } else if (DcHook.isBlank(policy.value())) {
        ctx.report(policy.key(), "empty", h.describe()).fix(title, false, policy.value() instanceof YScalar s
            && s.type() == YScalar.Type.STRING ? ctx.edits().replaceString(s, suggested) : List.of());
      }
    }
  }
}
