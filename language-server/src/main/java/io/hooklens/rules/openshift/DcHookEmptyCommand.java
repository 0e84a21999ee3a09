package io.hooklens.rules.openshift;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.openshift.DcHook;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YScalar;
import io.hooklens.core.yaml.YSeq;

@RuleInfo(
    id = "HL305",
    name = "dc-hook-empty-command",
    summary = "A DeploymentConfig execNewPod hook has no command",
    severity = Severity.ERROR,
    remediation = "Give execNewPod a command list, such as [\"./migrate-database.sh\"] or [\"/bin/sh\", \"-c\","
        + " \"...\"] for a shell line.",
    messages = {
        @Message(id = "missing", text = "{0}.execNewPod has no command; the API requires a non-empty command list"
            + " and rejects the DeploymentConfig."),
        @Message(id = "empty", text = "{0}.execNewPod.command is empty; the API requires at least one element and"
            + " rejects the DeploymentConfig."),
        @Message(id = "notList", text = "{0}.execNewPod.command is a single string; it must be a list, so the API"
            + " rejects it. Write [\"/bin/sh\", \"-c\", \"...\"] to run a shell line.")
    })
public final class DcHookEmptyCommand implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (DcHook h : DcHook.validatedIn(doc)) {
      YMap exec = h.execNewPod();
      if (exec == null || h.setsBothActions()) {
        continue;
      }
      YMap.Entry command = exec.entry("command");
      if (command == null) {
        ctx.report(h.hook().entry("execNewPod").key(), "missing", h.describe());
      } else if (DcHook.isBlank(command.value())) {
        ctx.report(command.key(), "missing", h.describe());
      } else if (command.value() instanceof YSeq seq && seq.size() == 0) {
        ctx.report(seq, "empty", h.describe());
      } else if (command.value() instanceof YScalar s && !s.isTemplated()) {
        ctx.report(s, "notList", h.describe());
      }
    }
  }
}
