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
    id = "HL216",
    name = "helm-hook-pod-never-completes",
    summary = "A hook Pod restarts its containers for ever, so Helm waits for it until the timeout",
    severity = Severity.ERROR,
    fixable = true,
    remediation = "Set restartPolicy: Never (or OnFailure) on the hook Pod.",
    messages = {
        @Message(id = "missing", text = "{0} is a hook Pod without restartPolicy, so it defaults to Always: the pod"
            + " never reaches Succeeded, Helm waits for it until --timeout and the release fails."
            + " Set restartPolicy: Never."),
        @Message(id = "always", text = "With restartPolicy Always this hook Pod never reaches Succeeded; Helm waits"
            + " for it until --timeout and the release fails."),
        @Message(id = "missingArgo", text = "{0} is a hook Pod without restartPolicy, so it defaults to Always. Argo"
            + " CD counts such a Pod done only while it runs and is ready: a command that exits is restarted, and"
            + " Argo CD fails the hook as Degraded. Set restartPolicy: Never."),
        @Message(id = "alwaysArgo", text = "With restartPolicy Always, Argo CD counts this hook Pod done only while it"
            + " runs and is ready: a command that exits is restarted, and Argo CD fails the hook as Degraded.")
    })
public final class HelmHookPodNeverCompletes implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    boolean argo = ctx.targets().argoCd();
    for (HelmHook h : HelmHook.in(doc)) {
      PodSpec pod = h.kind().equals("Pod") ? h.podSpec(doc) : null;
      if (pod == null || (argo && ArgoCdHooks.runEvents(h.resource()).isEmpty())) {
        continue;
      }
      YScalar policy = pod.node().scalar("restartPolicy");
      if (policy == null || policy.type() == YScalar.Type.NULL) {
        if (!pod.hidesContent() && !HelmHookUnknownField.misplaces(h, pod, "restartPolicy")) {
          ctx.report(FindingPlaces.specKey(pod), argo ? "missingArgo" : "missing", h.resource().displayName())
              .fix(HelmHookJobRestartPolicy.NEVER, false, ctx.edits().insertString(pod.node(), "restartPolicy", "Never"));
        }
      } else if (policy.value().equals("Always")) {
        ctx.report(policy, argo ? "alwaysArgo" : "always")
            .fix(HelmHookJobRestartPolicy.NEVER, false, ctx.edits().replaceString(policy, "Never"));
      }
    }
  }
}
