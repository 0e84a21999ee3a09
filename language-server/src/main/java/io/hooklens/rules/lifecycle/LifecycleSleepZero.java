package io.hooklens.rules.lifecycle;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.engine.Version;
import io.hooklens.core.model.Handler;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YScalar;
import java.util.OptionalLong;

@RuleInfo(
    id = "HL106",
    name = "lifecycle-sleep-zero",
    summary = "A sleep action waits zero seconds",
    severity = Severity.ERROR,
    remediation = "Remove the hook, or sleep for at least 1 second.",
    messages = {
        @Message(id = "rejected", text = "sleep.seconds: 0 is rejected on Kubernetes {0}; zero is allowed only"
            + " from 1.33 on. Sleep at least 1 second or remove the hook."),
        @Message(id = "rejectedDc", text = "sleep.seconds: 0 is rejected in a DeploymentConfig: OpenShift validates"
            + " its pod template without the option that allows a zero sleep. Sleep at least 1 second or remove"
            + " the hook."),
        @Message(id = "noop", text = "A zero-second sleep does nothing; Kubernetes {0} accepts it, but the hook"
            + " can simply be removed.")
    })
public final class LifecycleSleepZero implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    Version target = ctx.targets().kubernetes();
    for (Handler h : doc.handlers()) {
      YMap sleep = h.map() == null ? null : h.map().map("sleep");
      YScalar seconds = sleep == null ? null : sleep.scalar("seconds");
      OptionalLong s = seconds == null ? OptionalLong.empty() : seconds.asLong();
      if (s.isEmpty() || s.getAsLong() != 0) {
        continue;
      }
      if ("DeploymentConfig".equals(h.pod().owner().kind())) {
        ctx.report(seconds, "rejectedDc");
      } else if (!target.isBefore(1, 33)) {
        ctx.report(seconds, "noop", target).severity(Severity.INFO);
      } else if (!target.isBefore(1, 30)) {
        // Before 1.30 the sleep action itself is stripped or unknown; HL107 reports that instead.
        ctx.report(seconds, "rejected", target);
      }
    }
  }
}
