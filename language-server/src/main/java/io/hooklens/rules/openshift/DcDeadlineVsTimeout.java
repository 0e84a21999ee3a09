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
import java.util.OptionalLong;

@RuleInfo(
    id = "HL313",
    name = "dc-deadline-vs-timeout",
    summary = "A DeploymentConfig's activeDeadlineSeconds is not above its rollout timeout, or minReadySeconds is not"
        + " below both",
    severity = Severity.ERROR,
    remediation = "Keep minReadySeconds < timeoutSeconds < activeDeadlineSeconds (defaults 0, 600 and 21600).",
    messages = {
        @Message(id = "deadline", text = "activeDeadlineSeconds ({0}s) must be greater than the rollout timeout,"
            + " {1} ({2}){3}; the API rejects the DeploymentConfig."),
        @Message(id = "timeoutOverDefaultDeadline", text = "{0} ({1}s) must be less than activeDeadlineSeconds,"
            + " which defaults to 21600s{2}; the API rejects the DeploymentConfig."),
        @Message(id = "minReadyTimeout", text = "minReadySeconds ({0}s) must be less than the rollout timeout, {1}"
            + " ({2}){3}; the API rejects the DeploymentConfig."),
        @Message(id = "minReadyDeadline", text = "minReadySeconds ({0}s) must be less than activeDeadlineSeconds"
            + " ({1}); the API rejects the DeploymentConfig.")
    })
public final class DcDeadlineVsTimeout implements Rule {
  /** The timeout the API compares against, and where it comes from. */
  private record Timeout(OptionalLong seconds, YScalar node, String field, boolean fromRollingForRecreate) {
    String describe() {
      return seconds.getAsLong() + "s" + (node == null || node.type() == YScalar.Type.NULL ? ", the default" : "");
    }

    String note() {
      return fromRollingForRecreate
          ? " (the API reads rollingParams.timeoutSeconds whenever that block exists, even for type Recreate)" : "";
    }
  }

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Resource r : doc.resources()) {
      YMap spec = DcHook.isDeploymentConfig(r) ? r.root().map("spec") : null;
      if (spec != null) {
        check(ctx, r, spec);
      }
    }
  }

  private static void check(RuleContext ctx, Resource r, YMap spec) {
    YMap strategy = DcHook.strategy(r);
    Timeout timeout = timeout(strategy, DcHook.strategyType(r));
    YScalar deadlineNode = DcHook.activeDeadlineNode(r);
    OptionalLong deadline = DcHook.activeDeadline(r);
    boolean deadlineWritten = deadlineNode != null && deadlineNode.type() != YScalar.Type.NULL;
    if (timeout != null && timeout.seconds().isPresent() && deadline.isPresent()
        && deadline.getAsLong() <= timeout.seconds().getAsLong()) {
      if (deadlineWritten) {
        var reported = ctx.report(deadlineNode, "deadline", deadline.getAsLong(), timeout.field(), timeout.describe(),
            timeout.note());
        if (timeout.node() != null) {
          reported.related(timeout.node(), "the rollout timeout");
        }
      } else {
        ctx.report(timeout.node(), "timeoutOverDefaultDeadline", timeout.field(), timeout.seconds().getAsLong(),
            timeout.note());
      }
    }

    YScalar minReadyNode = spec.scalar("minReadySeconds");
    OptionalLong minReady = minReadyNode == null ? OptionalLong.empty() : minReadyNode.asLong();
    if (minReady.isEmpty()) {
      return;
    }
    long m = minReady.getAsLong();
    // Without a params block the API still compares minReadySeconds with the 600-second default.
    Timeout t = timeout != null ? timeout
        : new Timeout(OptionalLong.of(DcHook.DEFAULT_TIMEOUT_SECONDS), null, "timeoutSeconds", false);
    if (t.seconds().isPresent() && t.seconds().getAsLong() > 0 && m >= t.seconds().getAsLong()) {
      var reported = ctx.report(minReadyNode, "minReadyTimeout", m, t.field(), t.describe(), t.note());
      if (t.node() != null) {
        reported.related(t.node(), "the rollout timeout");
      }
    } else if (deadline.isPresent() && m >= deadline.getAsLong()) {
      var reported = ctx.report(minReadyNode, "minReadyDeadline", m, DcHook.describeActiveDeadline(r));
      if (deadlineWritten) {
        reported.related(deadlineNode, "activeDeadlineSeconds");
      }
    }
  }

  /**
   * The timeout after defaulting, as the API reads it: rollingParams.timeoutSeconds whenever a rollingParams
   * block exists (the API server creates one for type Rolling), else recreateParams.timeoutSeconds (created for
   * type Recreate); 600 when the block does not set it. Null when there is no block at all (type Custom, or a
   * templated type).
   */
  private static Timeout timeout(YMap strategy, String type) {
    YMap rolling = strategy == null ? null : strategy.map("rollingParams");
    if (rolling != null || "Rolling".equals(type)) {
      return timeoutOf(rolling, "rollingParams", "Recreate".equals(type));
    }
    YMap recreate = strategy == null ? null : strategy.map("recreateParams");
    if (recreate != null || "Recreate".equals(type)) {
      return timeoutOf(recreate, "recreateParams", false);
    }
    return null;
  }

  private static Timeout timeoutOf(YMap block, String params, boolean fromRollingForRecreate) {
    YScalar node = block == null ? null : block.scalar("timeoutSeconds");
    return new Timeout(DcHook.orDefault(node, DcHook.DEFAULT_TIMEOUT_SECONDS), node, params + ".timeoutSeconds",
        fromRollingForRecreate);
  }
}
