package io.hooklens.rules.openshift;

import io.hooklens.core.engine.Fix;
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
import java.util.List;

@RuleInfo(
    id = "HL314",
    name = "dc-post-hook-abort",
    summary = "A DeploymentConfig post hook can fail the rollout after the new version is already live",
    severity = Severity.WARNING,
    fixable = true,
    remediation = "Set the post hook's failurePolicy to Ignore, or move a check that must stop the rollout to the pre"
        + " or mid hook.",
    messages = {
        @Message(id = "abort", text = "A failing post hook with Abort fails the rollout after the new version is"
            + " already scaled up and serving; OpenShift then scales the previous version back up and this one to 0"
            + " (on a first rollout, everything to 0). The original hook design did not allow Abort for post."),
        @Message(id = "retry", text = "Retry restarts a failing post hook until it succeeds or activeDeadlineSeconds"
            + " ({0}) runs out; if it never succeeds, the rollout fails after the new version is already live, and"
            + " OpenShift scales the previous version back up and this one to 0 (on a first rollout, everything"
            + " to 0)."),
        @Message(id = "unknown", text = "failurePolicy \"{0}\" is not Ignore, so the deployer treats it like Abort: a"
            + " failing post hook fails the rollout after the new version is already live, and OpenShift scales the"
            + " previous version back up and this one to 0 (on a first rollout, everything to 0)."),
        @Message(id = "proposal", text = "The 2015 proposal that strategy.lifecycle comes from did not allow Abort for"
            + " post hooks (only Retry and Continue): a post hook runs once the new version is live, so it could"
            + " not be made to fail the deployment. When moving this hook to recreateParams or rollingParams, use"
            + " Ignore."),
        @Message(id = "legacy", text = "This DeploymentConfig is written for the 2015 pre-release {0} API, when a"
            + " failing post hook was only logged. In apps.openshift.io/v1, failurePolicy {1} on a post hook fails"
            + " the rollout after the new version is already live, and OpenShift scales the previous version back up"
            + " and this one to 0; use Ignore when moving it to v1.")
    })
public final class DcPostHookAbort implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Resource r : doc.resources()) {
      boolean legacy = DcHook.isLegacyDeploymentConfig(r);
      List<DcHook> hooks = legacy ? DcHook.ofLegacy(r) : DcHook.isDeploymentConfig(r) ? DcHook.of(r) : List.of();
      for (DcHook h : hooks) {
        String policy = h.policy();
        // Not applied by --fix: a failing post hook then no longer rolls the version back.
        Fix ignore = h.failurePolicy() == null ? null : new Fix("Set failurePolicy: Ignore", false,
            ctx.edits().replaceString(h.failurePolicy(), FailurePolicy.IGNORE.value()));
        if (h.phase() != DcPhase.POST || policy == null || h.knownPolicy() == FailurePolicy.IGNORE) {
          continue;
        }
        if (h.form() == DcHook.Form.PROPOSAL) {
          // The proposal allowed Retry and Continue for post; only Abort went against its design.
          if (h.knownPolicy() == FailurePolicy.ABORT) {
            ctx.report(h.failurePolicy(), "proposal").fix(ignore);
          }
        } else if (legacy && h.runsOnRollout()) {
          ctx.report(h.failurePolicy(), "legacy", r.apiVersion(), policy).fix(ignore);
        } else if (h.runsOnRollout()) {
          FailurePolicy known = h.knownPolicy();
          if (known == FailurePolicy.ABORT) {
            ctx.report(h.failurePolicy(), "abort").fix(ignore);
          } else if (known == FailurePolicy.RETRY) {
            ctx.report(h.failurePolicy(), "retry", DcHook.describeActiveDeadline(r)).fix(ignore);
          } else {
            ctx.report(h.failurePolicy(), "unknown", policy).fix(ignore);
          }
        }
      }
    }
  }
}
