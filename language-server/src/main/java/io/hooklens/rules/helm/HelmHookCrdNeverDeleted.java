package io.hooklens.rules.helm;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.helm.HelmHook;
import io.hooklens.core.yaml.YScalar;

@RuleInfo(
    id = "HL220",
    name = "helm-hook-crd-never-deleted",
    summary = "A CustomResourceDefinition hook has a delete policy, which Helm never applies to CRDs",
    severity = Severity.INFO,
    remediation = "Remove helm.sh/hook-delete-policy from the CRD, or manage the CRD outside hooks (the chart's"
        + " crds/ directory).",
    messages = @Message(id = "neverDeleted", text = "Helm never deletes a CustomResourceDefinition hook, so this"
        + " delete policy has no effect."))
public final class HelmHookCrdNeverDeleted implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (HelmHook h : HelmHook.in(doc)) {
      YScalar policy = h.deletePolicyValue();
      if (h.kind().equals("CustomResourceDefinition") && policy != null && policy.type() != YScalar.Type.NULL
          && !policy.isTemplated() && !policy.value().isBlank()) {
        ctx.report(policy, "neverDeleted");
      }
    }
  }
}
