package io.hooklens.rules.lifecycle;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.Container;
import io.hooklens.core.model.Handler;
import io.hooklens.core.model.Hook;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.HookDurations;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YScalar;
import io.hooklens.core.yaml.YSeq;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

@RuleInfo(
    id = "HL122",
    name = "poststart-targets-own-app",
    summary = "A postStart hook calls the application it starts with, which may not listen yet",
    severity = Severity.WARNING,
    remediation = "Retry until the application answers (a shell loop, or curl --retry-connrefused), move the call"
        + " into the application's own startup, or wait for it with a startupProbe.",
    messages = {
        @Message(id = "httpGet", text = "{0} calls port {1}, which this container serves; nothing orders postStart"
            + " after the entrypoint, so the app may not listen yet, and a refused connection fails the hook and"
            + " the kubelet kills and restarts the container."),
        @Message(id = "exec", text = "{0} calls {1} on {2}; nothing orders postStart after the entrypoint, so the"
            + " app may not listen yet and the call can be refused, and when that fails the hook the kubelet kills"
            + " and restarts the container.")
    })
public final class PostStartTargetsOwnApp implements Rule {
  private static final Set<String> LOCAL_HOSTS = Set.of("localhost", "127.0.0.1", "::1", "[::1]");
  private static final Set<String> CLIENTS = Set.of("curl", "wget");

  /** Words that may come before the client in a script without changing what runs. */
  private static final Set<String> PREFIXES = Set.of("exec", "busybox", "command");

  /** A URL or host:port on the loopback interface, as a curl or wget argument. */
  private static final Pattern LOCAL_URL = Pattern.compile(
      "(?i)^(?:https?://)?(?:[^@/\\s]*@)?(localhost|127\\.0\\.0\\.1|\\[::1\\])(?::(\\d{1,5}))?(?:[/?#].*)?$");

  /** Options or shell constructs that show the author already handles an app that is not up yet. */
  private static final Pattern HANDLES_RETRY =
      Pattern.compile("--retry-connrefused|--retry-all-errors|\\b(while|until|for)\\b");

  private static final Pattern SEGMENT = Pattern.compile("&&|\\|\\||;|\\n|\\|");

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Handler h : doc.handlers()) {
      if (h.hook() != Hook.POST_START || h.map() == null) {
        continue;
      }
      if (h.map().get("httpGet") instanceof YMap httpGet) {
        checkHttpGet(h, httpGet, ctx);
      }
      ExecCommand cmd = ExecCommand.of(h);
      if (cmd != null && !cmd.isEmpty()) {
        checkExec(h, cmd, doc, ctx);
      }
    }
  }

  private static void checkHttpGet(Handler h, YMap httpGet, RuleContext ctx) {
    // No host, or an empty one, means the pod IP.
    YScalar host = httpGet.scalar("host");
    String hostName = host == null || host.type() == YScalar.Type.NULL ? "" : host.value().trim();
    if ((host != null && host.isTemplated())
        || (!hostName.isEmpty() && !LOCAL_HOSTS.contains(hostName.toLowerCase(Locale.ROOT)))) {
      return;
    }
    YScalar port = httpGet.scalar("port");
    if (port == null || port.isTemplated()) {
      return;
    }
    OptionalLong number = port.asLong();
    for (YMap p : ports(h.container())) {
      boolean byNumber = number.isPresent() && p.scalar("containerPort") != null
          && p.scalar("containerPort").asLong().equals(number);
      boolean byName = port.type() == YScalar.Type.STRING && port.value().equals(p.string("name"));
      if (byNumber || byName) {
        ctx.report(port, "httpGet", h.describe(), port.value());
        return;
      }
    }
  }

  private static void checkExec(Handler h, ExecCommand cmd, HookDocument doc, RuleContext ctx) {
    List<YScalar> items = cmd.items();
    if (items.get(0).isTemplated()) {
      return;
    }
    List<String> argv = cmd.argv();
    String script = HookDurations.shellScript(argv);
    if (script != null) {
      YScalar scriptNode = items.get(argv.lastIndexOf(script));
      if (scriptNode.isTemplated() || HANDLES_RETRY.matcher(script).find()) {
        return;
      }
      for (String segment : SEGMENT.split(script)) {
        Local local = localCall(List.of(segment.trim().split("\\s+")), h, doc);
        if (local != null) {
          ctx.report(scriptNode, "exec", h.describe(), local.client(), local.target());
          return;
        }
      }
      return;
    }
    if (HANDLES_RETRY.matcher(String.join(" ", argv)).find()) {
      return;
    }
    Local local = localCall(argv, h, doc);
    if (local != null && !items.get(local.index()).isTemplated()) {
      ctx.report(items.get(local.index()), "exec", h.describe(), local.client(), local.target());
    }
  }

  /** A curl or wget call to the loopback interface. */
  private record Local(String client, String target, int index) {}

  /** The local call made by a command's words, or null; the index is that of the URL word. */
  private static Local localCall(List<String> words, Handler h, HookDocument doc) {
    int first = 0;
    while (first < words.size() && PREFIXES.contains(words.get(first))) {
      first++;
    }
    if (first >= words.size() || !CLIENTS.contains(ExecCommand.name(words.get(first)))) {
      return null;
    }
    for (int i = first + 1; i < words.size(); i++) {
      String w = words.get(i).replaceAll("^[\"']|[\"']$", "");
      Matcher m = LOCAL_URL.matcher(w);
      if (m.matches() && !servedByAnotherContainer(m.group(2), h, doc)) {
        return new Local(ExecCommand.name(words.get(first)), w, i);
      }
    }
    return null;
  }

  /** A port this container does not declare but another container of the pod does: a sidecar is called. */
  private static boolean servedByAnotherContainer(String port, Handler h, HookDocument doc) {
    if (port == null) {
      return false;
    }
    long p = Long.parseLong(port);
    if (declares(h.container(), p)) {
      return false;
    }
    return doc.containers().stream()
        .anyMatch(c -> c.pod().equals(h.pod()) && !c.equals(h.container()) && declares(c, p));
  }

  private static boolean declares(Container c, long port) {
    return ports(c).stream().anyMatch(p -> p.scalar("containerPort") != null
        && p.scalar("containerPort").asLong().equals(OptionalLong.of(port)));
  }

  private static List<YMap> ports(Container c) {
    YSeq ports = c.node().seq("ports");
    if (ports == null) {
      return List.of();
    }
    return ports.items().stream().map(YNode::asMap).filter(Objects::nonNull).toList();
  }
}
