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
import java.util.List;

@RuleInfo(
    id = "HL110",
    name = "lifecycle-httpget-port-name-unknown",
    summary = "An httpGet hook names a port that its own container does not declare",
    severity = Severity.ERROR,
    remediation = "Use one of the container's own port names or a port number, or add a named port to the"
        + " container.",
    messages = {
        @Message(id = "unknown", text = "Container \"{1}\" has no port named \"{0}\" (its named ports: {2}); the"
            + " kubelet cannot resolve it, so the {3} hook fails on every run."),
        @Message(id = "noNamedPorts", text = "Container \"{1}\" has no port named \"{0}\" (it declares no named"
            + " ports); the kubelet cannot resolve it, so the {2} hook fails on every run.")
    })
public final class LifecycleHttpGetPortNameUnknown implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Handler h : doc.handlers()) {
      YMap http = h.map() == null ? null : h.map().map("httpGet");
      YScalar port = http == null ? null : http.scalar("port");
      if (port == null || port.type() != YScalar.Type.STRING || port.isTemplated()
          || PortNames.problem(port.value()) != null) {
        continue;
      }
      List<String> names = PortNames.declared(h.container());
      if (names == null || names.contains(port.value())) {
        continue;
      }
      String container = h.container().displayName();
      RuleContext.Reported reported = names.isEmpty()
          ? ctx.report(port, "noNamedPorts", port.value(), container, h.hook().field())
          : ctx.report(port, "unknown", port.value(), container, String.join(", ", names), h.hook().field());
      // The ports the kubelet searches, or the container itself when it lists none.
      YMap.Entry ports = h.container().node().entry("ports");
      YScalar name = h.container().node().scalar("name");
      if (ports != null) {
        reported.related(ports.key(), "the ports of container " + container);
      } else if (name != null) {
        reported.related(name, "container " + container);
      }
    }
  }
}
