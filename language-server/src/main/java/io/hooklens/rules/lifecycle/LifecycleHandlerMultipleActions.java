package io.hooklens.rules.lifecycle;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.Handler;
import io.hooklens.core.model.HookDocument;
import java.util.List;

@RuleInfo(
    id = "HL102",
    name = "lifecycle-handler-multiple-actions",
    summary = "A postStart or preStop handler sets more than one action",
    severity = Severity.ERROR,
    remediation = "Keep one action per handler (exec, httpGet or sleep) and delete the others.",
    messages = @Message(id = "extra",
        text = "{0} sets {1} actions ({2}); a handler takes exactly one, so the API rejects this extra {3}."))
public final class LifecycleHandlerMultipleActions implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Handler h : doc.handlers()) {
      List<String> actions = h.actions();
      // The API accepts the first action in its own order and rejects each later one, so report those.
      for (int i = 1; i < actions.size(); i++) {
        ctx.report(h.map().entry(actions.get(i)).key(), "extra", h.hook().field(), actions.size(),
            String.join(", ", actions), actions.get(i));
      }
    }
  }
}
