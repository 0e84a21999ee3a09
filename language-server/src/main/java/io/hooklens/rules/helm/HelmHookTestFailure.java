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
import io.hooklens.core.yaml.YScalar;

@RuleInfo(
    id = "HL203",
    name = "helm-hook-test-failure",
    summary = "helm.sh/hook uses the Helm 2 event test-failure, so Helm 3 and 4 skip the whole resource",
    severity = Severity.ERROR,
    fixable = true,
    remediation = "Use the test event with a command that exits 0 when the expected failure occurs.",
    messages = @Message(id = "testFailure", text = "test-failure was a Helm 2 event and Helm 3 removed it: Helm"
        + " skips this whole resource, so this test never runs. Use test with a command that exits 0 when the"
        + " expected failure occurs."))
public final class HelmHookTestFailure implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Resource r : doc.resources()) {
      YScalar v = HelmAnnotations.annotation(r, HelmAnnotations.HOOK);
      if (v != null && !v.isTemplated() && RegisteredHooks.readByHelm(doc, r)
          && RegisteredHooks.items(v).stream().anyMatch(i -> i.normalized().equals("test-failure"))) {
        // Not applied by --fix: a test that expects failure must be rewritten to expect success.
        ctx.report(v, "testFailure").fix(HelmFixes.title("test-failure", "test"), false,
            HelmFixes.replaceItem(ctx, v, "test-failure", "test"));
      }
    }
  }
}
