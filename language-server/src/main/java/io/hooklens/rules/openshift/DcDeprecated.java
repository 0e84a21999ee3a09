package io.hooklens.rules.openshift;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.openshift.DcHook;
import io.hooklens.core.yaml.YScalar;

@RuleInfo(
    id = "HL319",
    name = "dc-deprecated",
    summary = "DeploymentConfig is deprecated since OpenShift 4.14",
    severity = Severity.INFO,
    remediation = "Move to a Deployment; replace pre hooks with init containers or Jobs (or Helm hooks), and post"
        + " hooks with Jobs.",
    messages = @Message(id = "deprecated", text = "DeploymentConfig is deprecated since OpenShift 4.14; prefer a"
        + " Deployment."))
public final class DcDeprecated implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Resource r : doc.resources()) {
      YScalar kind = DcHook.isDeploymentConfig(r) ? r.root().scalar("kind") : null;
      if (kind != null) {
        ctx.report(kind, "deprecated");
      }
    }
  }
}
