package io.hooklens.rules.lifecycle;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.engine.Version;
import io.hooklens.core.model.Duration;
import io.hooklens.core.model.Handler;
import io.hooklens.core.model.Hook;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.HookDurations;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

@RuleInfo(
    id = "HL125",
    name = "prestop-prefer-sleep-action",
    summary = "A preStop exec hook only sleeps where the built-in sleep action is available",
    severity = Severity.INFO,
    fixable = true,
    remediation = "Replace the exec hook with the sleep action, sleep: {seconds: N}, which needs no sleep binary"
        + " in the image.",
    messages = {
        @Message(id = "preferSleep", text = "{0} only sleeps {1}s; on Kubernetes {2} the built-in action"
            + " sleep: {seconds: {1}} does the same in the kubelet and needs no sleep binary or shell in the"
            + " image."),
        @Message(id = "preferSleepOverGrace", text = "{0} only sleeps {1}s; on Kubernetes {2} the built-in"
            + " action sleep: {seconds: {1}} needs no sleep binary, but the API rejects it when it is longer"
            + " than terminationGracePeriodSeconds ({3}), so raise that first.")
    })
public final class PreStopPreferSleepAction implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    Version target = ctx.targets().kubernetes();
    if (target.isBefore(1, 30)) {
      return;
    }
    for (Handler h : doc.handlers()) {
      ExecCommand cmd = ExecCommand.of(h);
      if (h.hook() != Hook.PRE_STOP || cmd == null || cmd.isEmpty() || !h.actions().equals(List.of("exec"))) {
        continue;
      }
      Duration d = HookDurations.ofCommand(cmd.node());
      if (!d.exact() || d.unbounded() || d.seconds() < 1 || d.seconds() != Math.rint(d.seconds())) {
        continue;
      }
      long seconds = (long) d.seconds();
      OptionalLong grace = h.pod().grace();
      if (grace.isPresent() && seconds > grace.getAsLong()) {
        ctx.report(h.key(), "preferSleepOverGrace", h.describe(), seconds, target, h.pod().describeGrace());
      } else {
        // Not applied by --fix: the hook then runs in the kubelet instead of the container.
        ctx.report(h.key(), "preferSleep", h.describe(), seconds, target).fix("Use sleep: {seconds: " + seconds
            + "}", false, ctx.edits().replaceEntry(h.map().entry("exec"), "sleep", Map.of("seconds", seconds)));
      }
    }
  }
}
