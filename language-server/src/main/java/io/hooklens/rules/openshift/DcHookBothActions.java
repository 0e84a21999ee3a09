package io.hooklens.rules.openshift;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.openshift.DcHook;
import io.hooklens.core.yaml.YMap;

@RuleInfo(
    id = "HL303",
    name = "dc-hook-both-actions",
    summary = "A DeploymentConfig hook sets both execNewPod and tagImages",
    severity = Severity.ERROR,
    remediation = "Keep one action per hook: move the other one to another hook (pre, mid or post) or drop it.",
    messages = @Message(id = "both", text = "{0} sets both execNewPod and tagImages; a hook takes exactly one"
        + " action, so the API rejects the DeploymentConfig."))
public final class DcHookBothActions implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (DcHook h : DcHook.validatedIn(doc)) {
      if (!h.setsBothActions()) {
        continue;
      }
      YMap.Entry exec = h.hook().entry("execNewPod");
      YMap.Entry tags = h.hook().entry("tagImages");
      // The second action as written is the one to move or drop.
      boolean execFirst = exec.key().range().start().compareTo(tags.key().range().start()) < 0;
      ctx.report(execFirst ? tags.key() : exec.key(), "both", h.describe());
    }
  }
}
