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
import io.hooklens.core.yaml.YScalar;

@RuleInfo(
    id = "HL205",
    name = "helm-hook-empty",
    summary = "helm.sh/hook is empty, so Helm skips the whole resource",
    severity = Severity.ERROR,
    remediation = "Name the events the hook runs on, or remove the annotation to make it a normal resource.",
    messages = @Message(id = "empty", text = "helm.sh/hook names no event. Helm reads that as an unknown event and"
        + " skips this whole resource: it is installed neither as a hook nor as a normal resource."))
public final class HelmHookEmpty implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Resource r : doc.resources()) {
      YMap.Entry e = HelmAnnotations.entry(r, HelmAnnotations.HOOK);
      if (e == null || !(e.value() instanceof YScalar v) || v.isTemplated() || !RegisteredHooks.readByHelm(doc, r)) {
        continue;
      }
      if (RegisteredHooks.items(v).stream().allMatch(i -> i.normalized().isEmpty())) {
        ctx.report(FindingPlaces.valueOrKey(e), "empty");
      }
    }
  }
}
