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
import java.util.regex.Pattern;

@RuleInfo(
    id = "HL112",
    name = "lifecycle-httpget-host",
    summary = "An httpGet hook sets host, so the kubelet calls that host from the node instead of the pod",
    severity = Severity.WARNING,
    remediation = "Remove httpGet.host so that the kubelet calls the pod IP; put a virtual host name in an"
        + " httpHeaders entry named Host.",
    messages = {
        @Message(id = "local", text = "httpGet.host \"{0}\" is the node, not this pod: the kubelet sends lifecycle"
            + " HTTP requests from the node. Remove host to call the pod IP, and put a virtual host name in a"
            + " Host header."),
        @Message(id = "other", text = "httpGet.host \"{0}\" replaces the pod IP, and the request is sent by the"
            + " kubelet from the node (node network and DNS), not from the pod. To call this pod, remove host and"
            + " put a virtual host name in a Host header.")
    })
public final class LifecycleHttpGetHost implements Rule {
  private static final Set<String> LOCAL_NAMES =
      Set.of("localhost", "localhost.", "localhost.localdomain", "ip6-localhost", "::1", "[::1]", "0.0.0.0");
  private static final Pattern LOOPBACK_V4 = Pattern.compile("127(\\.\\d{1,3}){3}");

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Handler h : doc.handlers()) {
      YMap http = h.map() == null ? null : h.map().map("httpGet");
      YScalar host = http == null ? null : http.scalar("host");
      // An empty host means the pod IP, like an absent one.
      if (host == null || host.type() == YScalar.Type.NULL || host.value().isEmpty() || host.isTemplated()) {
        continue;
      }
      String v = host.value().toLowerCase(Locale.ROOT);
      boolean local = LOCAL_NAMES.contains(v) || LOOPBACK_V4.matcher(v).matches();
      ctx.report(host, local ? "local" : "other", host.value());
    }
  }
}
