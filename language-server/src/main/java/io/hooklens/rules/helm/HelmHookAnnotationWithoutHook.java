package io.hooklens.rules.helm;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.helm.HelmAnnotations;
import io.hooklens.core.model.helm.RegisteredHooks;
import io.hooklens.core.yaml.YMap;
import java.util.List;

@RuleInfo(
    id = "HL213",
    name = "helm-hook-annotation-without-hook",
    summary = "A hook weight, delete policy or output-log policy is set on a resource that is not a hook",
    severity = Severity.WARNING,
    remediation = "Add helm.sh/hook with the events the resource should run on, or remove the annotation.",
    messages = {
        @Message(id = "noHook", text = "{0} has no effect without helm.sh/hook: Helm installs this resource as an"
            + " ordinary part of the release."),
        @Message(id = "noHookArgo", text = "{0} has no effect without helm.sh/hook: Argo CD syncs this resource as"
            + " an ordinary one."),
        @Message(id = "waveArgo", text = "helm.sh/hook-weight has no effect here: Argo CD would take it as the sync"
            + " wave of this resource, but argocd.argoproj.io/sync-wave comes first.")
    })
public final class HelmHookAnnotationWithoutHook implements Rule {
  private static final String SYNC_WAVE = "argocd.argoproj.io/sync-wave";
  private static final List<String> HOOK_ONLY_KEYS =
      List.of(HelmAnnotations.WEIGHT, HelmAnnotations.DELETE_POLICY, HelmAnnotations.OUTPUT_LOG_POLICY);

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    boolean argo = ctx.targets().argoCd();
    for (Resource r : doc.resources()) {
      YMap a = r.annotations();
      if (a == null || a.has(HelmAnnotations.HOOK) || !RegisteredHooks.readByHelm(doc, r)) {
        continue;
      }
      for (String key : HOOK_ONLY_KEYS) {
        YMap.Entry e = a.entry(key);
        if (e == null) {
          continue;
        }
        if (!argo) {
          ctx.report(e.key(), "noHook", key);
        } else if (!key.equals(HelmAnnotations.WEIGHT)) {
          ctx.report(e.key(), "noHookArgo", key);
        } else if (a.has(SYNC_WAVE)) {
          // Without a wave of its own, the weight is the resource's sync wave: it does have an effect.
          ctx.report(e.key(), "waveArgo");
        }
      }
    }
  }
}
