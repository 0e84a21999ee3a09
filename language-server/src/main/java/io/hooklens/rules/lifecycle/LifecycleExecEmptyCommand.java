package io.hooklens.rules.lifecycle;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.Handler;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YScalar;
import io.hooklens.core.yaml.YSeq;

@RuleInfo(
    id = "HL115",
    name = "lifecycle-exec-empty-command",
    summary = "An exec hook has no command or an empty one",
    severity = Severity.ERROR,
    remediation = "Give exec.command the program and its arguments as a list, for example"
        + " [\"/bin/sh\", \"-c\", \"...\"], or remove the hook.",
    messages = {
        @Message(id = "missing", text = "{0}: exec has no command; the API requires a non-empty exec.command."),
        @Message(id = "empty", text = "{0}: exec.command is empty; the API requires at least the program to run.")
    })
public final class LifecycleExecEmptyCommand implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Handler h : doc.handlers()) {
      YMap.Entry exec = h.map() == null ? null : h.map().entry("exec");
      if (exec == null || !(exec.value() instanceof YMap m)) {
        continue;
      }
      YMap.Entry command = m.entry("command");
      if (command == null) {
        if (!LifecycleFieldType.misspells(m, "ExecAction", "command")) {
          ctx.report(exec.key(), "missing", h.describe());
        }
      } else if (command.value() instanceof YScalar s && s.type() == YScalar.Type.NULL) {
        ctx.report(command.key(), "missing", h.describe());
      } else if (command.value() instanceof YSeq seq && seq.size() == 0) {
        ctx.report(seq, "empty", h.describe());
      }
    }
  }
}
