package io.hooklens.rules.budget;

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
import io.hooklens.core.model.Termination;
import java.util.OptionalLong;

@RuleInfo(
    id = "HL402",
    name = "prestop-leaves-little-shutdown-time",
    summary = "A preStop hook leaves the app only a few seconds of the grace period to stop",
    severity = Severity.INFO,
    fixable = true,
    remediation = "Raise terminationGracePeriodSeconds to the hook's duration plus the time the app needs to stop"
        + " after SIGTERM, or shorten the hook.",
    params = PreStopLeavesLittleShutdownTime.Params.class,
    messages = @Message(id = "little", text = "{0} takes {1} of the {2} grace period, which leaves the app {3} to"
        + " stop after SIGTERM before SIGKILL. Set terminationGracePeriodSeconds to at least {4}."))
public final class PreStopLeavesLittleShutdownTime implements Rule {
  /** Parameters of HL402. */
  public record Params(
      @Param(description = "Seconds the app should have after SIGTERM; less than this left after preStop is"
          + " reported", defaultValue = "5")
      int minShutdownSeconds) {}

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    int minimum = ctx.params(Params.class).minShutdownSeconds();
    for (Handler h : doc.handlers()) {
      if (h.hook() != Hook.PRE_STOP) {
        continue;
      }
      OptionalLong grace = h.pod().grace();
      Duration d = HookDurations.of(h);
      // Nothing known about the hook (an HTTP call, a script without sleeps) says nothing about what is left.
      if (grace.isEmpty() || grace.getAsLong() <= 0 || d.unbounded() || d.seconds() <= 0) {
        continue;
      }
      double left = grace.getAsLong() - d.seconds();
      // left <= 0 is HL401's: the hook uses the whole grace period.
      if (left <= 0 || left >= minimum) {
        continue;
      }
      String leaves = left < Termination.MINIMUM_AFTER_SIGTERM_SECONDS ? "only the kubelet's 2-second minimum"
          : (d.exact() ? "" : "at most ") + Duration.format(left) + "s";
      long suggested = (long) Math.ceil(d.seconds()) + minimum;
      var r = ctx.report(h.key(), "little", h.describe(), d.describe(), h.pod().describeGrace(), leaves,
          suggested + "s");
      if (h.pod().graceNode() != null) {
        r.related(h.pod().graceNode(), "the grace period");
      }
      r.fix(GraceFix.raise(ctx, h.pod(), suggested));
    }
  }
}
