package io.hooklens.rules.helm;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.yaml.YMap;
import java.util.List;

@RuleInfo(
    id = "HL213",
    name = "helm-hook-annotation-without-hook",
    summary = "A hook weight, delete policy or output-log policy is set on a resource that is not a hook",
    severity = Severity.WARNING,
    remediation = "Add helm.sh/hook with the events the resource should run on, or remove the annotation.",
    messages = @Message(id = "noHook", text = "{0} has no effect without helm.sh/hook: Helm installs this resource"
        + " as an ordinary part of the release."))
public final class HelmHookAnnotationWithoutHook implements Rule {
  private static final List<String> HOOK_ONLY_KEYS =
      List.of(HelmAnnotations.WEIGHT, HelmAnnotations.DELETE_POLICY, HelmAnnotations.OUTPUT_LOG_POLICY);

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Resource r : doc.resources()) {
      YMap a = r.annotations();
      if (a == null || a.has(HelmAnnotations.HOOK) || !RegisteredHooks.readByHelm(doc, r)) {
        continue;
      }
      for (String key : HOOK_ONLY_KEYS) {
        YMap.Entry e = a.entry(key);
        if (e != null) {
          ctx.report(e.key(), "noHook", key);
        }
      }
    }
  }
}
