package io.hooklens.rules.lifecycle;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.Handler;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.yaml.YMap;

@RuleInfo(
    id = "HL101",
    name = "lifecycle-handler-no-action",
    summary = "A postStart or preStop handler sets no action",
    severity = Severity.ERROR,
    remediation = "Give the handler exactly one action: exec, httpGet or sleep, or remove the hook.",
    messages = @Message(id = "noAction",
        text = "{0} has no action; the API requires exactly one of exec, httpGet or sleep."))
public final class LifecycleHandlerNoAction implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Handler h : doc.handlers()) {
      if (h.map() != null && h.actions().isEmpty() && !h.map().has("grpc") && !misspellsAction(h.map())) {
        ctx.report(h.key(), "noAction", h.hook().field());
      }
    }
  }

  /** A key such as {@code exce} is HL126's, which names the action it stands for. */
  private static boolean misspellsAction(YMap handler) {
    return Handler.ACTIONS.stream().anyMatch(a -> LifecycleFieldType.misspells(handler, "LifecycleHandler", a));
  }
}
