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
import java.util.OptionalLong;

@RuleInfo(
    id = "HL108",
    name = "lifecycle-httpget-port-range",
    summary = "An httpGet hook has no port or a port number outside 1-65535",
    severity = Severity.ERROR,
    remediation = "Set httpGet.port to a port number between 1 and 65535 or to the name of a container port.",
    messages = {
        @Message(id = "missing", text = "httpGet in {0} has no port; the API requires a port number (1-65535) or"
            + " a port name."),
        @Message(id = "range", text = "httpGet.port {0} is not a valid port number (1-65535); the API rejects"
            + " it.")
    })
public final class LifecycleHttpGetPortRange implements Rule {
  private static final long MAX_PORT = 65535;

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Handler h : doc.handlers()) {
      YMap http = h.map() == null ? null : h.map().map("httpGet");
      if (http == null) {
        continue;
      }
      YMap.Entry port = http.entry("port");
      if (port == null) {
        if (!LifecycleFieldType.misspells(http, "HTTPGetAction", "port")) {
          ctx.report(h.map().entry("httpGet").key(), "missing", h.hook().field());
        }
      } else if (port.value() instanceof YScalar s && s.type() == YScalar.Type.NULL) {
        ctx.report(port.key(), "missing", h.hook().field());
      } else if (port.value() instanceof YScalar s && (s.type() == YScalar.Type.INT || s.asLong().isPresent())) {
        // A whole float (8080.0) reaches the API as an integer; a fraction is HL126's type error.
        OptionalLong n = s.asLong();
        if (n.isEmpty() || n.getAsLong() < 1 || n.getAsLong() > MAX_PORT) {
          ctx.report(s, "range", s.value());
        }
      }
    }
  }
}
