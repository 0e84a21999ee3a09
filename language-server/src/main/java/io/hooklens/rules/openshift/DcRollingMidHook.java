package io.hooklens.rules.openshift;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.openshift.DcHook;
import io.hooklens.core.model.openshift.DcPhase;

@RuleInfo(
    id = "HL310",
    name = "dc-rolling-mid-hook",
    summary = "A DeploymentConfig has a mid hook under rollingParams, which has no such field",
    severity = Severity.ERROR,
    remediation = "Move the hook to rollingParams.pre or post, or switch to the Recreate strategy, whose"
        + " recreateParams.mid runs while no pods are up.",
    messages = @Message(id = "mid", text = "Rolling deployments have no mid hook: rollingParams.mid is not a field"
        + " of the API, so it is dropped (or rejected by strict field validation) and the hook never runs."))
public final class DcRollingMidHook implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Resource r : doc.resources()) {
      if (!DcHook.isDeploymentConfig(r)) {
        continue;
      }
      for (DcHook h : DcHook.of(r)) {
        if (h.form() == DcHook.Form.PARAMS && h.params().equals("rollingParams") && h.phase() == DcPhase.MID) {
          ctx.report(h.key(), "mid");
        }
      }
    }
  }
}
