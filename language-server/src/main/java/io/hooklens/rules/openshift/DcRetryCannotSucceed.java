package io.hooklens.rules.openshift;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.HookDurations;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.openshift.DcHook;
import io.hooklens.core.model.openshift.FailurePolicy;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YScalar;
import io.hooklens.core.yaml.YSeq;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

@RuleInfo(
    id = "HL316",
    name = "dc-retry-cannot-succeed",
    summary = "A DeploymentConfig hook uses Retry where retrying cannot help",
    severity = Severity.WARNING,
    remediation = "Use failurePolicy Abort, or fix the command so that it can succeed.",
    messages = {
        @Message(id = "alwaysFails", text = "Retry restarts the hook pod until its command succeeds or"
            + " activeDeadlineSeconds ({0}) runs out, but this command can never succeed ({1}), so the rollout hangs"
            + " until that deadline and then fails."),
        @Message(id = "tagImages", text = "Retry has no effect on a tagImages hook: there is no pod to restart, so a"
            + " failure aborts the rollout at once, exactly as with Abort.")
    })
public final class DcRetryCannotSucceed implements Rule {
  private static final Pattern STATEMENT_SPLIT = Pattern.compile("[;\\n]");
  private static final Pattern EXIT = Pattern.compile("exit\\s+([0-9]{1,9})");
  private static final Pattern LEAVES_EARLY = Pattern.compile("\\b(exit|exec|trap|return)\\b");

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Resource r : doc.resources()) {
      if (!DcHook.isDeploymentConfig(r)) {
        continue;
      }
      for (DcHook h : DcHook.of(r)) {
        if (h.knownPolicy() != FailurePolicy.RETRY || !h.runsOnRollout()) {
          continue;
        }
        YMap exec = h.execNewPod();
        YSeq tags = h.tagImages();
        if (exec == null && tags != null && tags.size() > 0) {
          ctx.report(h.failurePolicy(), "tagImages");
        } else if (exec != null && exec.get("command") instanceof YSeq command && !templated(command)) {
          List<String> argv = HookDurations.argv(command);
          String reason = argv == null ? null : alwaysFails(argv);
          if (reason != null) {
            ctx.report(h.failurePolicy(), "alwaysFails", DcHook.describeActiveDeadline(r), reason)
                .related(command, "the command");
          }
        }
      }
    }
  }

  private static boolean templated(YSeq command) {
    for (YNode n : command.items()) {
      if (n instanceof YScalar s && s.isTemplated()) {
        return true;
      }
    }
    return false;
  }

  /** Why a command fails on every run, or null when it may succeed. */
  static String alwaysFails(List<String> argv) {
    if (argv.isEmpty()) {
      return null;
    }
    List<String> args = argv;
    if (HookDurations.basename(args.get(0)).equals("busybox") && args.size() > 1) {
      args = args.subList(1, args.size());
    }
    if (HookDurations.basename(args.get(0)).equals("false")) {
      return "false always exits with 1";
    }
    String script = HookDurations.shellScript(args);
    return script == null ? null : scriptAlwaysFails(script);
  }

  /**
   * A script fails on every run when its last statement is {@code exit N} (N not a multiple of 256) or
   * {@code false} and nothing before it can leave the script: an earlier {@code exit}, {@code exec},
   * {@code trap} or {@code return} (as in {@code check && exit 0; exit 1}) makes the answer "may succeed", and
   * so does a last statement with {@code ||}, a background {@code &} or a pipe, or one hidden in quotes,
   * comments or blocks.
   */
  static String scriptAlwaysFails(String script) {
    String last = null;
    for (String s : STATEMENT_SPLIT.split(script)) {
      String t = s.trim();
      if (t.isEmpty()) {
        continue;
      }
      if (last != null && LEAVES_EARLY.matcher(last).find()) {
        return null;
      }
      last = t;
    }
    if (last == null || last.contains("||") || last.replace("&&", "").contains("&") || last.contains("|")) {
      return null;
    }
    // "a && exit 1" fails either way: with a's status or with 1.
    String[] chain = last.split("&&");
    String tail = chain[chain.length - 1].trim();
    Matcher m = EXIT.matcher(tail);
    if (m.matches() && Long.parseLong(m.group(1)) % 256 != 0) {
      return "the script always ends with \"" + tail + "\"";
    }
    if (HookDurations.basename(tail).equals("false") && !tail.contains(" ")) {
      return "the script always ends with \"" + tail + "\"";
    }
    return null;
  }
}
