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
import java.util.Locale;

@RuleInfo(
    id = "HL109",
    name = "lifecycle-httpget-port-name-invalid",
    summary = "An httpGet hook's port is a string that is not a valid port name",
    severity = Severity.ERROR,
    fixable = true,
    remediation = "Write a port number unquoted, or use the name of a container port: at most 15 lower-case"
        + " letters, digits and single dashes, with at least one letter.",
    messages = {
        @Message(id = "quotedNumber", text = "httpGet.port \"{0}\" is a string, not a number, and a port name"
            + " needs a letter, so the API rejects it; write it unquoted: port: {0}."),
        @Message(id = "invalid", text = "httpGet.port \"{0}\" is not a valid port name ({1}); the API rejects"
            + " it.")
    })
public final class LifecycleHttpGetPortNameInvalid implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Handler h : doc.handlers()) {
      YMap http = h.map() == null ? null : h.map().map("httpGet");
      YScalar port = http == null ? null : http.scalar("port");
      if (port == null || port.type() != YScalar.Type.STRING || port.isTemplated()) {
        continue;
      }
      String name = port.value();
      if (port.quoted() && !name.isEmpty() && name.chars().allMatch(c -> c >= '0' && c <= '9')) {
        ctx.report(port, "quotedNumber", name).fix("Write " + name + " unquoted", true,
            ctx.edits().replaceLiteral(port, name));
      } else {
        String problem = PortNames.problem(name);
        if (problem != null) {
          var reported = ctx.report(port, "invalid", name, problem);
          String lower = name.toLowerCase(Locale.ROOT);
          // Only a port the container declares makes the lower case what was meant; any other name would
          // trade this finding for HL110's.
          List<String> declared = PortNames.declared(h.container());
          if (!lower.equals(name) && PortNames.problem(lower) == null && declared != null
              && declared.contains(lower)) {
            reported.fix("Write " + lower, true, ctx.edits().replaceString(port, lower));
          }
        }
      }
    }
  }
}
