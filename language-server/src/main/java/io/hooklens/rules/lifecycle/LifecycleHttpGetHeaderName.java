package io.hooklens.rules.lifecycle;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.Handler;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YScalar;
import io.hooklens.core.yaml.YSeq;
import java.util.regex.Pattern;

@RuleInfo(
    id = "HL113",
    name = "lifecycle-httpget-header-name",
    summary = "An httpGet hook sends a header whose name is missing or has characters other than letters,"
        + " digits and '-'",
    severity = Severity.ERROR,
    remediation = "Name each header with letters, digits and '-' only, such as X-Request-Source.",
    messages = {
        @Message(id = "invalid", text = "HTTP header name \"{0}\" is invalid: only letters, digits and '-' are"
            + " allowed, so the API rejects it."),
        @Message(id = "missing", text = "This httpHeaders entry has no name; the API requires a header name.")
    })
public final class LifecycleHttpGetHeaderName implements Rule {
  private static final Pattern HEADER_NAME = Pattern.compile("[-A-Za-z0-9]+");

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Handler h : doc.handlers()) {
      YMap http = h.map() == null ? null : h.map().map("httpGet");
      YSeq headers = http == null ? null : http.seq("httpHeaders");
      if (headers == null) {
        continue;
      }
      for (YNode item : headers.items()) {
        if (item instanceof YMap header) {
          check(header, ctx);
        }
      }
    }
  }

  private static void check(YMap header, RuleContext ctx) {
    YMap.Entry name = header.entry("name");
    if (name == null) {
      if (!LifecycleFieldType.misspells(header, "HTTPHeader", "name")) {
        ctx.report(header, "missing");
      }
    } else if (name.value() instanceof YScalar s && !s.isTemplated()) {
      if (s.type() == YScalar.Type.NULL || s.value().isEmpty()) {
        ctx.report(name.key(), "missing");
      } else if (s.type() == YScalar.Type.STRING && !HEADER_NAME.matcher(s.value()).matches()) {
        ctx.report(s, "invalid", s.value());
      }
    }
  }
}
