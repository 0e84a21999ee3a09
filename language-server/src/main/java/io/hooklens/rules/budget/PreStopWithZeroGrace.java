package io.hooklens.rules.budget;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.Handler;
import io.hooklens.core.model.Hook;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YScalar;
import java.util.OptionalLong;

@RuleInfo(
    id = "HL403",
    name = "prestop-with-zero-grace",
    summary = "A preStop hook in a pod whose grace period is 0",
    severity = Severity.WARNING,
    remediation = "Set a positive terminationGracePeriodSeconds that covers the hook and the app's shutdown, or"
        + " remove the preStop hook if the pod is meant to stop at once.",
    messages = @Message(id = "zeroGrace", text = "{0} cannot do its work: with terminationGracePeriodSeconds: 0 it"
        + " is skipped or gets about one second, depending on how the pod is stopped."))
public final class PreStopWithZeroGrace implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Handler h : doc.handlers()) {
      YScalar grace = h.pod().graceNode();
      if (h.hook() != Hook.PRE_STOP || grace == null || grace.asLong().orElse(-1) != 0 || sleepsPastZero(h)) {
        continue;
      }
      ctx.report(h.key(), "zeroGrace", h.describe()).related(grace, "the grace period");
    }
  }

  /** A sleep action longer than a zero grace period is rejected by the API, which HL105 reports. */
  private static boolean sleepsPastZero(Handler h) {
    YMap sleep = h.map() == null ? null : h.map().map("sleep");
    OptionalLong seconds = sleep == null || sleep.scalar("seconds") == null ? OptionalLong.empty()
        : sleep.scalar("seconds").asLong();
    return seconds.isPresent() && seconds.getAsLong() > 0;
  }
}
