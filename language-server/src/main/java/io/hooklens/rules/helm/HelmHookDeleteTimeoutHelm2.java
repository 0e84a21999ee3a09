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

@RuleInfo(
    id = "HL212",
    name = "helm-hook-delete-timeout-helm2",
    summary = "helm.sh/hook-delete-timeout is a Helm 2 annotation that Helm 3 and 4 ignore",
    severity = Severity.INFO,
    remediation = "Remove the annotation.",
    messages = @Message(id = "helm2", text = "helm.sh/hook-delete-timeout was read only by Helm 2 (Tiller); Helm 3"
        + " and 4 ignore it."))
public final class HelmHookDeleteTimeoutHelm2 implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Resource r : doc.resources()) {
      YMap.Entry e = HelmAnnotations.entry(r, HelmAnnotations.DELETE_TIMEOUT);
      if (e != null && RegisteredHooks.readByHelm(doc, r)) {
        ctx.report(e.key(), "helm2");
      }
    }
  }
}
