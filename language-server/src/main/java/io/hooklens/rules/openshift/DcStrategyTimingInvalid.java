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
import java.util.List;
import java.util.OptionalLong;

@RuleInfo(
    id = "HL312",
    name = "dc-strategy-timing-invalid",
    summary = "A DeploymentConfig strategy sets timeoutSeconds, intervalSeconds or updatePeriodSeconds below 1",
    severity = Severity.ERROR,
    remediation = "Set the field to 1 or more, or remove it to get the default (600 for timeoutSeconds, 1 for the"
        + " others).",
    messages = @Message(id = "belowOne", text = "{0}.{1} is {2}; the API requires at least 1 second and rejects"
        + " the DeploymentConfig."))
public final class DcStrategyTimingInvalid implements Rule {
  private static final List<String> RECREATE_FIELDS = List.of("timeoutSeconds");
  private static final List<String> ROLLING_FIELDS =
      List.of("updatePeriodSeconds", "intervalSeconds", "timeoutSeconds");

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Resource r : doc.resources()) {
      YMap strategy = DcHook.isDeploymentConfig(r) ? DcHook.strategy(r) : null;
      String type = strategy == null ? null : DcHook.strategyType(r);
      if (type == null) {
        continue;
      }
      // Only the block the type selects is validated; Custom validates whichever blocks are present.
      boolean custom = type.equals("Custom");
      if (custom || type.equals("Recreate")) {
        check(ctx, strategy, "recreateParams", RECREATE_FIELDS);
      }
      if (custom || type.equals("Rolling")) {
        check(ctx, strategy, "rollingParams", ROLLING_FIELDS);
      }
    }
  }

  private static void check(RuleContext ctx, YMap strategy, String params, List<String> fields) {
    YMap block = strategy.map(params);
    if (block == null) {
      return;
    }
    for (String field : fields) {
      YScalar value = block.scalar(field);
      OptionalLong v = value == null ? OptionalLong.empty() : value.asLong();
      if (v.isPresent() && v.getAsLong() < 1) {
        ctx.report(value, "belowOne", params, field, v.getAsLong());
      }
    }
  }
}
