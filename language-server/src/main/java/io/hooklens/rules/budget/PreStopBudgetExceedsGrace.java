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
import java.util.OptionalLong;

@RuleInfo(
    id = "HL401",
    name = "prestop-budget-exceeds-grace",
    summary = "A preStop hook needs as long as the grace period or longer",
    severity = Severity.WARNING,
    fixable = true,
    remediation = "Raise terminationGracePeriodSeconds to the hook's duration plus the time the app needs to stop"
        + " after SIGTERM, or shorten the hook.",
    params = PreStopBudgetExceedsGrace.Params.class,
    messages = {
        @Message(id = "exceeds", text = "{0} needs {1} but the grace period is {2}; the grace period counts from"
            + " before preStop, so the hook is cut off and the app gets only the kubelet's 2-second minimum"
            + " after SIGTERM. Set terminationGracePeriodSeconds to at least {3}."),
        @Message(id = "endless", text = "{0} never ends on its own ({1}); every stop waits the whole grace period of"
            + " {2} and the app gets only the kubelet's 2-second minimum after SIGTERM.")
    })
public final class PreStopBudgetExceedsGrace implements Rule {
  /** Parameters of HL401. */
  public record Params(
      @Param(description = "Seconds the app needs after SIGTERM; added to the hook's duration in the suggested"
          + " grace period", defaultValue = "15")
      int shutdownSeconds) {}

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    int shutdown = ctx.params(Params.class).shutdownSeconds();
    for (Handler h : doc.handlers()) {
      if (h.hook() != Hook.PRE_STOP) {
        continue;
      }
      OptionalLong grace = h.pod().grace();
      if (grace.isEmpty() || grace.getAsLong() <= 0) {
        continue;
      }
      Duration d = HookDurations.of(h);
      long g = grace.getAsLong();
      if (d.unbounded()) {
        report(ctx, h, "endless", h.describe(), "it waits forever", h.pod().describeGrace());
      } else if (d.seconds() >= g && !(isSleepAction(h) && d.seconds() > g)) {
        long suggested = (long) Math.ceil(d.seconds()) + shutdown;
        report(ctx, h, "exceeds", h.describe(), d.describe(), h.pod().describeGrace(), suggested + "s")
            .fix(GraceFix.raise(ctx, h.pod(), suggested));
      }
    }
  }

  /** A sleep action over the grace period is rejected by the API, which HL105 reports. */
  private static boolean isSleepAction(Handler h) {
    return h.map() != null && h.map().has("sleep");
  }

  private static RuleContext.Reported report(RuleContext ctx, Handler h, String id, Object... args) {
    var r = ctx.report(h.key(), id, args);
    if (h.pod().graceNode() != null) {
      r.related(h.pod().graceNode(), "the grace period");
    }
    return r;
  }
}
