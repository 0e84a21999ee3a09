package io.hooklens.rules.lifecycle;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.Handler;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.PodSpec;
import io.hooklens.core.yaml.YScalar;
import java.util.OptionalLong;

@RuleInfo(
    id = "HL124",
    name = "grace-period-negative",
    summary = "terminationGracePeriodSeconds is negative",
    severity = Severity.WARNING,
    fixable = true,
    remediation = "Set terminationGracePeriodSeconds to 0 for an immediate kill, or to the seconds the hooks and"
        + " the app need to stop.",
    messages = {
        @Message(id = "negative", text = "terminationGracePeriodSeconds={0} is invalid; the API server accepts it"
            + " with a warning and treats it as 1 second."),
        @Message(id = "negativeWithSleep", text = "terminationGracePeriodSeconds={0} is invalid; the API server"
            + " treats it as 1 second, and rejects the pod because its sleep hooks are longer than a negative"
            + " grace period.")
    })
public final class GracePeriodNegative implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (PodSpec pod : doc.podSpecs()) {
      YScalar node = pod.graceNode();
      OptionalLong grace = node == null ? OptionalLong.empty() : node.asLong();
      if (grace.isPresent() && grace.getAsLong() < 0) {
        // 1 is what the API makes of a negative value; whether the author wanted 0 is theirs to say.
        ctx.report(node, hasSleepAction(doc, pod) ? "negativeWithSleep" : "negative", grace.getAsLong())
            .fix("Set terminationGracePeriodSeconds to 1", false, ctx.edits().replaceLiteral(node, "1"));
      }
    }
  }

  private static boolean hasSleepAction(HookDocument doc, PodSpec pod) {
    for (Handler h : doc.handlers()) {
      if (h.pod().equals(pod) && h.actions().contains("sleep")) {
        return true;
      }
    }
    return false;
  }
}
