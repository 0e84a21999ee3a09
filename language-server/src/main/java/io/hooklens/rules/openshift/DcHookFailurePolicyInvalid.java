package io.hooklens.rules.openshift;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.openshift.DcHook;
import io.hooklens.core.model.openshift.FailurePolicy;
import io.hooklens.core.yaml.YScalar;

@RuleInfo(
    id = "HL302",
    name = "dc-hook-failure-policy-invalid",
    summary = "A DeploymentConfig hook's failurePolicy is not exactly Abort, Retry or Ignore",
    severity = Severity.ERROR,
    fixable = true,
    remediation = "Write failurePolicy exactly as Abort, Retry or Ignore; replace the proposal's Continue with"
        + " Ignore.",
    messages = {
        @Message(id = "notAbort", text = "failurePolicy \"{0}\" is not Abort (the value is exact and"
            + " case-sensitive). The API accepts it, and the deployer still stops the rollout when the hook fails,"
            + " but without the hook's Failed event."),
        @Message(id = "notRetry", text = "failurePolicy \"{0}\" is not Retry (the value is exact and"
            + " case-sensitive). The API accepts it, but the hook pod is never restarted: the first failure stops"
            + " the rollout, without the hook's Failed event."),
        @Message(id = "notIgnore", text = "failurePolicy \"{0}\" is not Ignore (the value is exact and"
            + " case-sensitive). The API accepts it, but the deployer does not recognise it: a failing hook stops"
            + " the rollout instead of being ignored."),
        @Message(id = "continue", text = "failurePolicy \"{0}\" comes from the 2015 design proposal and is not a"
            + " policy of apps.openshift.io/v1. The API accepts it, but a failing hook then stops the rollout"
            + " instead of letting it continue; use Ignore."),
        @Message(id = "unknown", text = "failurePolicy \"{0}\" is not Abort, Retry or Ignore. The API accepts any"
            + " non-empty value, but the deployer treats an unknown one like Abort, without the hook's Failed"
            + " event."),
        @Message(id = "notString", text = "failurePolicy must be the string Abort, Retry or Ignore; the API"
            + " rejects {0}.")
    })
public final class DcHookFailurePolicyInvalid implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (DcHook h : DcHook.validatedIn(doc)) {
      YScalar p = h.failurePolicy();
      if (p == null || DcHook.isBlank(p) || p.isTemplated() || FailurePolicy.VALUES.contains(p.value())) {
        continue;
      }
      if (p.type() != YScalar.Type.STRING) {
        ctx.report(p, "notString", p.value());
        continue;
      }
      String v = p.value().trim();
      FailurePolicy meant = FailurePolicy.VALUES.stream().filter(v::equalsIgnoreCase).findFirst()
          .map(FailurePolicy::parse).orElse(null);
      // A case or spacing slip is corrected to the policy written; Continue's successor changes behaviour.
      if (meant != null) {
        ctx.report(p, "not" + meant.value(), p.value()).fix("Write " + meant.value(), true,
            ctx.edits().replaceString(p, meant.value()));
      } else if (v.equalsIgnoreCase("Continue")) {
        ctx.report(p, "continue", p.value()).fix("Replace Continue with Ignore", false,
            ctx.edits().replaceString(p, FailurePolicy.IGNORE.value()));
      } else {
        ctx.report(p, "unknown", p.value());
      }
    }
  }
}
