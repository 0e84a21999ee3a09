package io.hooklens.rules.helm;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.PodSpec;
import io.hooklens.core.model.helm.HelmHook;
import io.hooklens.core.yaml.YScalar;

@RuleInfo(
    id = "HL215",
    name = "helm-hook-job-restart-policy",
    summary = "A hook Job's pod template does not set restartPolicy Never or OnFailure",
    severity = Severity.ERROR,
    fixable = true,
    remediation = "Set restartPolicy: Never (or OnFailure) in the Job's pod template.",
    messages = {
        @Message(id = "missing", text = "{0} is a hook whose pod template has no restartPolicy; the pod default,"
            + " Always, is not allowed for a Job, so the API rejects the hook and the release fails."
            + " Set restartPolicy: Never or OnFailure."),
        @Message(id = "invalid", text = "restartPolicy \"{0}\" is not allowed in a Job's pod template (only Never"
            + " or OnFailure); the API rejects this hook and the release fails.")
    })
public final class HelmHookJobRestartPolicy implements Rule {
  /** Not applied by --fix: OnFailure is the other choice, and it retries in place. */
  static final String NEVER = "Set restartPolicy: Never";

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (HelmHook h : HelmHook.in(doc)) {
      if (!h.kind().equals("Job") && !h.kind().equals("CronJob")) {
        continue;
      }
      PodSpec pod = h.podSpec(doc);
      if (pod == null) {
        continue;
      }
      YScalar policy = pod.node().scalar("restartPolicy");
      if (policy == null || policy.type() == YScalar.Type.NULL) {
        if (!pod.hidesContent() && !HelmHookUnknownField.misplaces(h, pod, "restartPolicy")) {
          ctx.report(FindingPlaces.specKey(pod), "missing", h.resource().displayName())
              .fix(NEVER, false, ctx.edits().insertString(pod.node(), "restartPolicy", "Never"));
        }
      } else if (!policy.isTemplated() && !policy.value().equals("Never") && !policy.value().equals("OnFailure")) {
        ctx.report(policy, "invalid", policy.value()).fix(NEVER, false, ctx.edits().replaceString(policy, "Never"));
      }
    }
  }
}
