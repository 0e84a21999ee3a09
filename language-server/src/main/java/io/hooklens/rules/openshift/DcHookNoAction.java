package io.hooklens.rules.openshift;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.openshift.DcHook;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YSeq;

@RuleInfo(
    id = "HL304",
    name = "dc-hook-no-action",
    summary = "A DeploymentConfig hook sets neither execNewPod nor tagImages",
    severity = Severity.ERROR,
    remediation = "Give the hook an execNewPod (command and containerName) or a non-empty tagImages list, or remove"
        + " the hook.",
    messages = @Message(id = "noAction", text = "{0} has no action; the API requires execNewPod or a non-empty"
        + " tagImages list and rejects the DeploymentConfig."))
public final class DcHookNoAction implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (DcHook h : DcHook.validatedIn(doc)) {
      if (h.hook() == null || h.misspells("execNewPod") || h.misspells("tagImages")) {
        continue;
      }
      YNode exec = h.hook().get("execNewPod");
      YNode tags = h.hook().get("tagImages");
      boolean noTags = DcHook.isBlank(tags) || tags instanceof YSeq seq && seq.size() == 0;
      if (DcHook.isBlank(exec) && noTags) {
        ctx.report(h.key(), "noAction", h.describe());
      }
    }
  }
}
