package io.hooklens.rules.lifecycle;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.Handler;
import io.hooklens.core.model.Hook;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.yaml.YScalar;
import java.util.Set;

@RuleInfo(
    id = "HL123",
    name = "prestop-on-run-to-completion",
    summary = "A preStop hook on a container that is expected to exit on its own",
    severity = Severity.INFO,
    remediation = "Do the clean-up at the end of the container's own command; keep preStop only for what must"
        + " happen when the pod is deleted, evicted or hits its deadline.",
    messages = @Message(id = "notOnExit", text = "{0} runs only when the kubelet kills the container (deletion,"
        + " eviction, a deadline), never when it exits on its own, which is how {1} normally ends."))
public final class PreStopOnRunToCompletion implements Rule {
  private static final Set<String> RUN_ONCE = Set.of("Never", "OnFailure");

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Handler h : doc.handlers()) {
      // A sidecar is stopped by the kubelet once the main containers are done, so its preStop does run.
      if (h.hook() != Hook.PRE_STOP || h.container().isSidecar()) {
        continue;
      }
      String what = runsToCompletion(h);
      if (what != null) {
        ctx.report(h.key(), "notOnExit", h.describe(), what);
      }
    }
  }

  /** How the pod is described in the message when it runs to completion, else null. */
  private static String runsToCompletion(Handler h) {
    String kind = h.pod().owner().kind();
    if ("Job".equals(kind) || "CronJob".equals(kind)) {
      return "a " + kind + "'s container";
    }
    YScalar policy = h.pod().node().scalar("restartPolicy");
    if ("Pod".equals(kind) && policy != null && !policy.isTemplated() && RUN_ONCE.contains(policy.value())) {
      return "a container of a Pod with restartPolicy: " + policy.value();
    }
    return null;
  }
}
