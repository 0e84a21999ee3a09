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
    id = "HL202",
    name = "helm-hook-crd-install",
    summary = "helm.sh/hook uses the Helm 2 event crd-install, so Helm 3 and 4 skip the whole resource",
    severity = Severity.ERROR,
    remediation = "Move the CustomResourceDefinition to the chart's crds/ directory and remove the hook annotation.",
    messages = {
        @Message(id = "crdInstall", text = "crd-install was a Helm 2 event that Helm 3 removed: Helm 3 and 4"
            + " skip {0} entirely, so this copy is installed neither as a hook nor as a normal resource. Put CRDs"
            + " in the chart's crds/ directory instead."),
        @Message(id = "alsoInCrds", text = "crd-install was a Helm 2 event that Helm 3 removed: Helm 3 and 4 skip"
            + " this copy of {0}, but the chart's crds/ directory holds a CustomResourceDefinition of the same"
            + " name, which Helm 3 and 4 install from there before the templates (on install, not on upgrade)."
            + " Only Helm 2 uses this copy; remove it once the chart no longer supports Helm 2.")})
public final class HelmHookCrdInstall implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Resource r : doc.resources()) {
      YScalar v = HelmAnnotations.annotation(r, HelmAnnotations.HOOK);
      if (v != null && !v.isTemplated() && RegisteredHooks.readByHelm(doc, r)
          && RegisteredHooks.items(v).stream().anyMatch(i -> i.normalized().equals("crd-install"))) {
        String what = r.kind() == null ? "this resource" : r.name() == null ? "this " + r.kind() : r.displayName();
        // The copy Helm 3 skips is then only Helm 2's: the chart still installs the CRD, so nothing is lost.
        if ("CustomResourceDefinition".equals(r.kind()) && r.name() != null && ctx.chartHasCrd(r.name())) {
          ctx.report(v, "alsoInCrds", what).severity(Severity.INFO);
        } else {
          ctx.report(v, "crdInstall", what);
        }
      }
    }
  }
}
