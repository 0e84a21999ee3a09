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
import java.util.List;
import java.util.OptionalLong;

@RuleInfo(
    id = "HL105",
    name = "lifecycle-sleep-out-of-range",
    summary = "sleep.seconds is negative or longer than the pod's grace period",
    severity = Severity.ERROR,
    fixable = true,
    remediation = "Keep sleep.seconds between 1 and terminationGracePeriodSeconds, leaving time for the app to"
        + " stop, or raise terminationGracePeriodSeconds.",
    messages = {
        @Message(id = "negative", text = "sleep.seconds={0} is negative; the API rejects it."),
        @Message(id = "overGrace", text = "sleep.seconds={0} is longer than terminationGracePeriodSeconds ({1});"
            + " the API rejects it.")
    })
public final class LifecycleSleepOutOfRange implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Handler h : doc.handlers()) {
      YMap sleep = h.map() == null ? null : h.map().map("sleep");
      YScalar seconds = sleep == null ? null : sleep.scalar("seconds");
      OptionalLong s = seconds == null ? OptionalLong.empty() : seconds.asLong();
      if (s.isEmpty()) {
        continue;
      }
      long value = s.getAsLong();
      OptionalLong grace = h.pod().grace();
      if (value < 0) {
        ctx.report(seconds, "negative", value);
      } else if (grace.isPresent() && value > grace.getAsLong()) {
        // Five seconds of the grace period are left for the app, as far as the grace period allows.
        long g = grace.getAsLong();
        long clamped = g > 5 ? g - 5 : g;
        var reported = ctx.report(seconds, "overGrace", value, h.pod().describeGrace())
            .fix("Sleep " + clamped + "s", false, clamped < 1 ? List.of()
                : ctx.edits().replaceLiteral(seconds, String.valueOf(clamped)));
        if (h.pod().graceNode() != null) {
          reported.related(h.pod().graceNode(), "the grace period");
        }
      }
    }
  }
}
