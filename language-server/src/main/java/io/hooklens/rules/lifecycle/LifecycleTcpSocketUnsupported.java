package io.hooklens.rules.lifecycle;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.Handler;
import io.hooklens.core.model.Hook;
import io.hooklens.core.model.HookDocument;

@RuleInfo(
    id = "HL103",
    name = "lifecycle-tcpsocket-unsupported",
    summary = "A postStart or preStop handler uses tcpSocket, which the kubelet cannot run",
    severity = Severity.ERROR,
    remediation = "Replace tcpSocket with httpGet on the same port, an exec command, or a sleep action.",
    messages = {
        @Message(id = "postStart", text = "tcpSocket passes API validation but the kubelet cannot run it as a"
            + " hook: this postStart fails on every start (FailedPostStartHook), so the container is killed and"
            + " restarted."),
        @Message(id = "preStop", text = "tcpSocket passes API validation but the kubelet cannot run it as a"
            + " hook: this preStop fails on every stop (FailedPreStopHook) and the container is stopped without"
            + " it.")
    })
public final class LifecycleTcpSocketUnsupported implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Handler h : doc.handlers()) {
      if (h.actions().contains("tcpSocket")) {
        ctx.report(h.map().entry("tcpSocket").key(), h.hook() == Hook.POST_START ? "postStart" : "preStop");
      }
    }
  }
}
