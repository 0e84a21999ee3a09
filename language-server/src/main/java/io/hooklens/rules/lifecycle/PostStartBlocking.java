package io.hooklens.rules.lifecycle;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Param;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.Duration;
import io.hooklens.core.model.Handler;
import io.hooklens.core.model.Hook;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.HookDurations;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

@RuleInfo(
    id = "HL121",
    name = "poststart-blocking",
    summary = "A postStart hook runs long or never returns, holding up the container's start",
    severity = Severity.WARNING,
    remediation = "Move the work into the entrypoint, an init container or a background process, and use a"
        + " startupProbe to wait for the application.",
    params = PostStartBlocking.Params.class,
    messages = {
        @Message(id = "long", text = "{0} runs for {1}; the kubelet does not mark the container running, or start"
            + " the containers listed after it, until postStart returns, so every start is delayed."),
        @Message(id = "endless", text = "{0} never returns ({1}); exec hooks have no timeout, so the container"
            + " never becomes running, the containers after it never start, and the pod never gets ready.")
    })
public final class PostStartBlocking implements Rule {
  /** Parameters of HL121. */
  public record Params(
      @Param(description = "A postStart hook estimated to run this many seconds or longer is reported",
          defaultValue = "10")
      int postStartMaxSeconds) {}

  /** A server run in the foreground, unless the line also has a flag that makes the program exit at once. */
  private record Foreground(Pattern server, Pattern exits) {}

  private static final List<Foreground> FOREGROUND = List.of(
      new Foreground(Pattern.compile("\\bnginx\\b.*daemon\\s+off"), Pattern.compile("\\s-[tTsvVh]\\b")),
      new Foreground(Pattern.compile("\\bpython[0-9.]*\\s+-m\\s+(http\\.server|SimpleHTTPServer)\\b"), null),
      new Foreground(Pattern.compile("\\btail\\s+(.*\\s)?(-[a-zA-Z]*F|--follow)"), null));

  /** A lone {@code &}: what precedes it runs in the background, so the hook does not wait for it. */
  private static final Pattern BACKGROUND = Pattern.compile("(?<![&>])&(?![&>])");

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    int max = ctx.params(Params.class).postStartMaxSeconds();
    for (Handler h : doc.handlers()) {
      if (h.hook() != Hook.POST_START) {
        continue;
      }
      Duration d = HookDurations.of(h);
      if (d.unbounded()) {
        ctx.report(h.key(), "endless", h.describe(), "it waits forever");
      } else if (runsServer(h)) {
        ctx.report(h.key(), "endless", h.describe(), "it runs a server in the foreground");
      } else if (d.seconds() >= max) {
        ctx.report(h.key(), "long", h.describe(), d.describe());
      }
    }
  }

  private static boolean runsServer(Handler h) {
    ExecCommand cmd = ExecCommand.of(h);
    if (cmd == null || cmd.isEmpty()) {
      return false;
    }
    List<String> argv = cmd.argv();
    String script = HookDurations.shellScript(argv);
    String line = script != null ? script : String.join(" ", argv);
    for (Foreground f : FOREGROUND) {
      Matcher m = f.server().matcher(line);
      if (m.find() && !BACKGROUND.matcher(line.substring(m.start())).find()
          && (f.exits() == null || !f.exits().matcher(line).find())) {
        return true;
      }
    }
    return false;
  }
}
