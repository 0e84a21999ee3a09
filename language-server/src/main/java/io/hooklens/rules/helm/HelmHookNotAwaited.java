package io.hooklens.rules.helm;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.helm.DeletePolicy;
import io.hooklens.core.model.helm.HelmEvent;
import io.hooklens.core.model.helm.HelmHook;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

@RuleInfo(
    id = "HL222",
    name = "helm-hook-not-awaited",
    summary = "A hook runs pods but is not a Job or Pod, so Helm does not wait for it",
    severity = Severity.INFO,
    remediation = "Make the hook a Job that does the work and exits, or drop the hook annotation so the object is an"
        + " ordinary release resource.",
    messages = {
        @Message(id = "notAwaited", text = "Helm treats a {0} hook as done as soon as it is created; it does not"
            + " wait for its pods, and later hooks and the release go ahead regardless."),
        @Message(id = "recreated", text = "Helm treats a {0} hook as done as soon as it is created and does not"
            + " wait for its pods; it is not part of the release either, and before-hook-creation deletes and"
            + " recreates it each time the hook runs ({1}).")
    })
public final class HelmHookNotAwaited implements Rule {
  /** Events that run again on a live release, where before-hook-creation tears the object down. */
  private static final Set<HelmEvent> RERUN = EnumSet.of(HelmEvent.PRE_UPGRADE, HelmEvent.POST_UPGRADE,
      HelmEvent.PRE_ROLLBACK, HelmEvent.POST_ROLLBACK);

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    // Argo CD waits until every hook it runs is healthy, a Deployment's pods included.
    if (ctx.targets().argoCd()) {
      return;
    }
    for (HelmHook h : HelmHook.in(doc)) {
      // Config objects (ServiceAccounts, RBAC, ConfigMaps...) are ready once created; only a workload is a surprise.
      if (h.isAwaited() || h.podSpec(doc) == null) {
        continue;
      }
      List<DeletePolicy> policies = h.deletePolicies();
      List<String> reruns = h.events().stream().filter(RERUN::contains).map(HelmEvent::annotation).toList();
      if (policies != null && policies.contains(DeletePolicy.BEFORE_HOOK_CREATION) && !reruns.isEmpty()) {
        ctx.report(h.hookValue(), "recreated", h.kind(), String.join(", ", reruns));
      } else {
        ctx.report(h.hookValue(), "notAwaited", h.kind());
      }
    }
  }
}
