package io.hooklens.rules.openshift;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.openshift.DcHook;
import io.hooklens.core.model.openshift.DcPhase;
import io.hooklens.core.model.openshift.FailurePolicy;

@RuleInfo(
    id = "HL315",
    name = "dc-mid-hook-abort-outage",
    summary = "A Recreate mid hook that can fail the rollout runs while no pods are up",
    severity = Severity.INFO,
    remediation = "Make sure the mid hook is reliable, or move checks that may fail to the pre hook, where the old"
        + " version is still serving.",
    messages = {
        @Message(id = "abort", text = "The mid hook runs after the old pods are stopped and before the new ones"
            + " start, so the app is down while it runs; if it fails, Abort fails the rollout and the app stays down"
            + " until OpenShift has scaled the previous version back up."),
        @Message(id = "retry", text = "The mid hook runs after the old pods are stopped and before the new ones"
            + " start; with Retry a failing hook is restarted until it succeeds or activeDeadlineSeconds ({0}) runs"
            + " out, and the app stays down all that time.")
    })
public final class DcMidHookAbortOutage implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Resource r : doc.resources()) {
      if (!DcHook.isDeploymentConfig(r)) {
        continue;
      }
      for (DcHook h : DcHook.of(r)) {
        String policy = h.policy();
        // rollingParams.mid is not a field (HL310), so only the Recreate block's mid hook runs.
        if (h.phase() != DcPhase.MID || !h.params().equals("recreateParams") || !h.runsOnRollout()
            || policy == null) {
          continue;
        }
        if (h.knownPolicy() == FailurePolicy.ABORT) {
          ctx.report(h.failurePolicy(), "abort");
        } else if (h.knownPolicy() == FailurePolicy.RETRY) {
          ctx.report(h.failurePolicy(), "retry", DcHook.describeActiveDeadline(r));
        }
      }
    }
  }
}
