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

@RuleInfo(
    id = "HL114",
    name = "lifecycle-httpget-defaults",
    summary = "An httpGet hook leaves path or scheme to their defaults",
    severity = Severity.INFO,
    remediation = "Write path and scheme explicitly so the request the kubelet makes is visible in the manifest.",
    messages = {
        @Message(id = "both", text = "{0}: httpGet sets neither path nor scheme; the kubelet requests \"/\" over"
            + " plain HTTP."),
        @Message(id = "path", text = "{0}: httpGet.path is not set; the kubelet requests \"/\"."),
        @Message(id = "scheme", text = "{0}: httpGet.scheme is not set; the kubelet uses plain HTTP.")
    })
public final class LifecycleHttpGetDefaults implements Rule {
  private static final String HTTP = "HTTPGetAction";

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Handler h : doc.handlers()) {
      YMap.Entry httpGet = h.map() == null ? null : h.map().entry("httpGet");
      if (httpGet == null || !(httpGet.value() instanceof YMap m)) {
        continue;
      }
      // A misspelt path or scheme is HL126's: it is not left to its default by choice.
      boolean noPath = defaulted(m.scalar("path"), m.has("path")) && !LifecycleFieldType.misspells(m, HTTP, "path");
      boolean noScheme = defaulted(m.scalar("scheme"), m.has("scheme"))
          && !LifecycleFieldType.misspells(m, HTTP, "scheme");
      if (noPath || noScheme) {
        ctx.report(httpGet.key(), noPath && noScheme ? "both" : noPath ? "path" : "scheme", h.describe());
      }
    }
  }

  /** Absent, null or empty: the API server's defaulting fills these in, exactly as if omitted. */
  private static boolean defaulted(YScalar s, boolean present) {
    if (!present) {
      return true;
    }
    return s != null && (s.type() == YScalar.Type.NULL || s.value().isEmpty());
  }
}
