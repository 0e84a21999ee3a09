package io.hooklens.rules.lifecycle;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.Handler;
import io.hooklens.core.model.HookDocument;

@RuleInfo(
    id = "HL104",
    name = "lifecycle-grpc-not-a-field",
    summary = "A postStart or preStop handler has a grpc key, which exists only on probes",
    severity = Severity.ERROR,
    remediation = "Replace grpc with an httpGet or exec action (for example a grpc_health_probe command).",
    messages = {
        @Message(id = "alone", text = "grpc exists only on probes; in {0} it is an unknown field and is dropped,"
            + " which leaves the handler with no action, so the API rejects it."),
        @Message(id = "ignored", text = "grpc exists only on probes; in {0} it is an unknown field and is"
            + " dropped, so it never runs.")
    })
public final class LifecycleGrpcNotAField implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Handler h : doc.handlers()) {
      if (h.map() != null && h.map().has("grpc")) {
        ctx.report(h.map().entry("grpc").key(), h.actions().isEmpty() ? "alone" : "ignored", h.hook().field());
      }
    }
  }
}
