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
    id = "HL321",
    name = "dc-custom-strategy-hooks",
    summary = "A DeploymentConfig with a Custom strategy declares Recreate or Rolling hooks",
    severity = Severity.INFO,
    remediation = "Make sure your deployer image runs these hooks, or use type Recreate or Rolling (customParams can"
        + " still set the deployer's image, command and environment).",
    messages = @Message(id = "custom", text = "With strategy type Custom your own deployer image runs the rollout"
        + " instead of the standard one, which implements only Recreate and Rolling; whether {0} runs depends on"
        + " that image."))
public final class DcCustomStrategyHooks implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Resource r : doc.resources()) {
      if (!DcHook.isDeploymentConfig(r) || !"Custom".equals(DcHook.strategyType(r))) {
        continue;
      }
      for (DcHook h : DcHook.of(r)) {
        if (h.form() == DcHook.Form.PARAMS) {
          ctx.report(h.key(), "custom", h.describe()).related(DcHook.strategyTypeNode(r), "the strategy type");
        }
      }
    }
  }
}
