package io.hooklens.rules.openshift;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.openshift.DcHook;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YScalar;

@RuleInfo(
    id = "HL320",
    name = "dc-proposal-lifecycle-block",
    summary = "A DeploymentConfig uses strategy.lifecycle from the 2015 hook proposal, which OpenShift never shipped",
    severity = Severity.ERROR,
    fixable = true,
    remediation = "Move lifecycle.pre and lifecycle.post to pre and post of recreateParams or rollingParams (the"
        + " block of the strategy type), write containerName instead of container, and use Ignore for Continue and"
        + " for a post hook's Abort.",
    messages = {
        @Message(id = "lifecycle", text = "strategy.lifecycle comes from the 2015 design proposal and does not exist"
            + " in apps.openshift.io/v1: the field is dropped (or rejected under strict field validation), so these"
            + " hooks never run. Move them to strategy.{0}."),
        @Message(id = "v1beta1", text = "template.strategy.lifecycle is the v1beta1 layout of the 2015 design"
            + " proposal; apps.openshift.io/v1 has neither, so these hooks never run. Write them under"
            + " spec.strategy.{0}.")
    })
public final class DcProposalLifecycleBlock implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Resource r : doc.resources()) {
      if (!"DeploymentConfig".equals(r.kind())) {
        continue;
      }
      if (DcHook.isDeploymentConfig(r) || DcHook.isLegacyDeploymentConfig(r)) {
        report(ctx, DcHook.strategy(r), "lifecycle");
      }
      YMap template = r.root().map("template");
      report(ctx, template == null ? null : template.map("strategy"), "v1beta1");
    }
  }

  private static void report(RuleContext ctx, YMap strategy, String messageId) {
    YMap.Entry lifecycle = strategy == null ? null : strategy.entry("lifecycle");
    if (lifecycle == null || lifecycle.value() instanceof YScalar s && s.type() == YScalar.Type.NULL) {
      return;
    }
    String target = target(strategy.scalar("type"));
    var reported = ctx.report(lifecycle.key(), messageId, target);
    // The proposal's pre and post mean what the params' do; their policies are HL302's and HL314's to fix.
    if (messageId.equals("lifecycle") && !target.contains(" or ")) {
      reported.fix(DcHooksInInactiveParams.move(ctx, strategy, lifecycle, target));
    }
  }

  /** The params block the strategy type runs hooks from; the API server defaults the type to Rolling. */
  private static String target(YScalar type) {
    String t = type == null || type.type() == YScalar.Type.NULL ? "Rolling" : type.value();
    return switch (t) {
      case "Recreate" -> "recreateParams";
      case "Rolling" -> "rollingParams";
      default -> "recreateParams or rollingParams";
    };
  }
}
