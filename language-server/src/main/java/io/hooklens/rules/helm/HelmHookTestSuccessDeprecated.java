package io.hooklens.rules.helm;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.helm.HelmAnnotations;
import io.hooklens.core.model.helm.HelmEvent;
import io.hooklens.core.model.helm.RegisteredHooks;
import io.hooklens.core.yaml.YScalar;

@RuleInfo(
    id = "HL204",
    name = "helm-hook-test-success-deprecated",
    summary = "helm.sh/hook uses test-success, the deprecated Helm 2 name of the test event",
    severity = Severity.INFO,
    fixable = true,
    remediation = "Write test instead of test-success.",
    messages = @Message(id = "testSuccess", text = "test-success is a deprecated alias of test, kept by Helm 3 and 4"
        + " for Helm 2 charts; write test."))
public final class HelmHookTestSuccessDeprecated implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Resource r : doc.resources()) {
      YScalar v = HelmAnnotations.annotation(r, HelmAnnotations.HOOK);
      if (v != null && !v.isTemplated() && RegisteredHooks.readByHelm(doc, r)
          && RegisteredHooks.items(v).stream().anyMatch(i -> i.normalized().equals(HelmEvent.TEST_SUCCESS))) {
        String test = HelmEvent.TEST.annotation();
        ctx.report(v, "testSuccess").fix(HelmFixes.title(HelmEvent.TEST_SUCCESS, test), true,
            HelmFixes.replaceItem(ctx, v, HelmEvent.TEST_SUCCESS, test));
      }
    }
  }
}
