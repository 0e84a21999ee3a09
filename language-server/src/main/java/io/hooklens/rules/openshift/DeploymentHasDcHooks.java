package io.hooklens.rules.openshift;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.openshift.DcHook;

@RuleInfo(
    id = "HL322",
    name = "deployment-has-dc-hooks",
    summary = "DeploymentConfig-style strategy hooks on a Deployment or another kind that has no such fields",
    severity = Severity.ERROR,
    remediation = "Run the step another way: an init container (runs before every pod), a Job run before the"
        + " rollout (or a Helm hook), or keep the object a DeploymentConfig.",
    messages = @Message(id = "dcHook", text = "{0} is a DeploymentConfig hook, but kind {1} has no"
        + " spec.strategy.{2}: the field is unknown there, so it is dropped (or rejected by strict field"
        + " validation) and the hook never runs."))
public final class DeploymentHasDcHooks implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Resource r : doc.resources()) {
      // A DeploymentConfig of any API version has these fields (or is wrong for other reasons).
      if (r.kind() == null || r.kind().equals("DeploymentConfig")) {
        continue;
      }
      String owner = r.kind() + (r.apiVersion() == null ? "" : " (" + r.apiVersion() + ")");
      for (DcHook h : DcHook.of(r)) {
        if (h.form() == DcHook.Form.PARAMS) {
          ctx.report(h.key(), "dcHook", h.describe(), owner, h.params());
        }
      }
    }
  }
}
