package io.hooklens.rules.budget;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.Duration;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.HookDurations;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.openshift.DcHook;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YScalar;
import java.util.OptionalLong;

@RuleInfo(
    id = "HL405",
    name = "dc-hook-vs-deadline",
    summary = "A DeploymentConfig hook plus the rollout timeout can outlast activeDeadlineSeconds",
    severity = Severity.WARNING,
    remediation = "Raise spec.strategy.activeDeadlineSeconds above the hook's duration plus timeoutSeconds, or"
        + " shorten the hook.",
    messages = {
        @Message(id = "exceeds", text = "{0} runs for {1} and the rollout may wait up to {2}s more for its pods"
            + " (timeoutSeconds); hooks are not limited by timeoutSeconds but share activeDeadlineSeconds ({3}) with"
            + " the whole rollout, so the deadline can stop the hook or the rollout after it, and the rollout"
            + " fails."),
        @Message(id = "endless", text = "{0} never ends on its own; hooks are not limited by timeoutSeconds, so the"
            + " rollout waits until activeDeadlineSeconds ({1}) stops it, and then fails.")
    })
public final class DcHookVsDeadline implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Resource r : doc.resources()) {
      if (!DcHook.isDeploymentConfig(r)) {
        continue;
      }
      OptionalLong deadline = DcHook.activeDeadline(r);
      for (DcHook h : DcHook.of(r)) {
        YMap exec = h.runsOnRollout() ? h.execNewPod() : null;
        OptionalLong timeout = h.timeoutSeconds();
        if (exec == null || deadline.isEmpty() || timeout.isEmpty()) {
          continue;
        }
        Duration d = HookDurations.ofCommand(exec.get("command"));
        // A hook that adds nothing known leaves timeout against deadline, which the API checks (HL313).
        if (d.unbounded()) {
          report(ctx, h, "endless", h.describe(), DcHook.describeActiveDeadline(r));
        } else if (d.seconds() > 0 && d.seconds() + timeout.getAsLong() >= deadline.getAsLong()) {
          report(ctx, h, "exceeds", h.describe(), d.describe(), timeout.getAsLong(),
              DcHook.describeActiveDeadline(r));
        }
      }
    }
  }

  private static void report(RuleContext ctx, DcHook h, String id, Object... args) {
    var reported = ctx.report(h.key(), id, args);
    YScalar deadline = DcHook.activeDeadlineNode(h.owner());
    if (deadline != null && deadline.type() != YScalar.Type.NULL) {
      reported.related(deadline, "activeDeadlineSeconds");
    }
  }
}
