package io.hooklens.rules.lifecycle;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.Container;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YScalar;

@RuleInfo(
    id = "HL119",
    name = "lifecycle-on-ephemeral-container",
    summary = "An ephemeral container sets lifecycle",
    severity = Severity.ERROR,
    remediation = "Remove lifecycle from the ephemeral container; run the command yourself in the debugging"
        + " session instead.",
    messages = @Message(id = "forbidden", text = "Ephemeral container \"{0}\" sets lifecycle; ephemeral"
        + " containers cannot have hooks or a stop signal, and the API rejects the container."))
public final class LifecycleOnEphemeralContainer implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Container c : doc.containers()) {
      if (c.kind() != Container.Kind.EPHEMERAL) {
        continue;
      }
      YMap.Entry lifecycle = c.node().entry("lifecycle");
      if (lifecycle != null && !(lifecycle.value() instanceof YScalar s && s.type() == YScalar.Type.NULL)) {
        ctx.report(lifecycle.key(), "forbidden", c.displayName());
      }
    }
  }
}
