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
import java.util.Locale;
import java.util.Set;

@RuleInfo(
    id = "HL111",
    name = "lifecycle-httpget-scheme",
    summary = "An httpGet hook's scheme is not exactly HTTP or HTTPS",
    severity = Severity.ERROR,
    fixable = true,
    remediation = "Set httpGet.scheme to HTTP or HTTPS, in upper case, or leave it out for HTTP.",
    messages = {
        @Message(id = "case", text = "httpGet.scheme must be {1}, in upper case; the API rejects \"{0}\"."),
        @Message(id = "invalid", text = "httpGet.scheme must be HTTP or HTTPS; the API rejects \"{0}\".")
    })
public final class LifecycleHttpGetScheme implements Rule {
  private static final Set<String> SCHEMES = Set.of("HTTP", "HTTPS");

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Handler h : doc.handlers()) {
      YMap http = h.map() == null ? null : h.map().map("httpGet");
      YScalar scheme = http == null ? null : http.scalar("scheme");
      // An empty scheme is defaulted to HTTP before validation, like an absent one.
      if (scheme == null || scheme.type() != YScalar.Type.STRING || scheme.value().isEmpty()
          || scheme.isTemplated() || SCHEMES.contains(scheme.value())) {
        continue;
      }
      String upper = scheme.value().trim().toUpperCase(Locale.ROOT);
      if (SCHEMES.contains(upper)) {
        ctx.report(scheme, "case", scheme.value(), upper).fix("Write " + upper, true,
            ctx.edits().replaceString(scheme, upper));
      } else {
        ctx.report(scheme, "invalid", scheme.value());
      }
    }
  }
}
