package io.hooklens.rules.openshift;

import io.hooklens.core.engine.Fix;
import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.openshift.DcHook;
import io.hooklens.core.model.openshift.DcPhase;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YScalar;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

@RuleInfo(
    id = "HL311",
    name = "dc-hooks-in-inactive-params",
    summary = "Hooks or timeoutSeconds sit in the params block that the strategy type of the DeploymentConfig does"
        + " not use",
    severity = Severity.WARNING,
    fixable = true,
    remediation = "Move the hooks and timeoutSeconds into the params block of the strategy type (rollingParams for"
        + " Rolling, recreateParams for Recreate) and remove the other block.",
    messages = {
        @Message(id = "recreateHooks", text = "recreateParams is not used by strategy type Rolling{0}: the API does"
            + " not validate it, and its hooks ({1}) run only on the very first rollout, which Rolling hands to the"
            + " Recreate code, and never on later rollouts. Move them to rollingParams."),
        @Message(id = "recreateTimeout", text = "recreateParams.timeoutSeconds has no effect with strategy type"
            + " Rolling{0}; rollouts use rollingParams.timeoutSeconds ({1})."),
        @Message(id = "rollingHooks", text = "rollingParams is not used by strategy type Recreate: the API does not"
            + " validate it, and its hooks ({0}) never run. Move them to recreateParams."),
        @Message(id = "rollingHooksTimeout", text = "rollingParams is not used by strategy type Recreate: the API"
            + " does not validate it, and its hooks ({0}) never run. Move them to recreateParams. Because the block"
            + " exists, its timeoutSeconds ({1}) also replaces recreateParams.timeoutSeconds ({2}) for the"
            + " Recreate rollout's scaling and acceptance waits."),
        @Message(id = "rollingTimeout", text = "rollingParams is not used by strategy type Recreate, but because the"
            + " block exists its timeoutSeconds ({0}) replaces recreateParams.timeoutSeconds ({1}) for the"
            + " Recreate rollout's scaling and acceptance waits.")
    })
public final class DcHooksInInactiveParams implements Rule {
  /** {@code timeoutSeconds} the API server sets in a params block that has none. */
  private static final long DEFAULT_TIMEOUT = 600;

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Resource r : doc.resources()) {
      if (!DcHook.isDeploymentConfig(r)) {
        continue;
      }
      String type = DcHook.strategyType(r);
      YMap strategy = DcHook.strategy(r);
      if (strategy == null || type == null) {
        continue;
      }
      RuleContext.Reported reported = type.equals("Rolling") ? recreateParamsOnRolling(r, strategy, ctx)
          : type.equals("Recreate") ? rollingParamsOnRecreate(r, strategy, ctx) : null;
      YScalar typeNode = DcHook.strategyTypeNode(r);
      if (reported != null && typeNode != null) {
        reported.related(typeNode, "the strategy type");
      }
    }
  }

  /** The finding about recreateParams on a Rolling strategy, or null. */
  private static RuleContext.Reported recreateParamsOnRolling(Resource r, YMap strategy, RuleContext ctx) {
    YMap.Entry block = strategy.entry("recreateParams");
    if (block == null || !(block.value() instanceof YMap params)) {
      return null;
    }
    String defaulted = strategy.string("type") == null ? " (the default)" : "";
    List<String> hooks = phases(r, "recreateParams");
    YMap.Entry timeout = params.entry("timeoutSeconds");
    if (!hooks.isEmpty()) {
      return ctx.report(block.key(), "recreateHooks", defaulted, String.join(", ", hooks))
          .fix(move(ctx, strategy, block, "rollingParams"));
    }
    if (timeout != null && !DcHook.isBlank(timeout.value())) {
      YMap rolling = strategy.map("rollingParams");
      return ctx.report(timeout.key(), "recreateTimeout", defaulted, describe(rolling, timeoutOf(rolling)));
    }
    return null;
  }

  /** The finding about rollingParams on a Recreate strategy, or null. */
  private static RuleContext.Reported rollingParamsOnRecreate(Resource r, YMap strategy, RuleContext ctx) {
    YMap.Entry block = strategy.entry("rollingParams");
    if (block == null || !(block.value() instanceof YMap rolling)) {
      return null;
    }
    // Any rollingParams block gets timeoutSeconds (600 by default), and the Recreate code prefers it to its own.
    YMap recreate = strategy.map("recreateParams");
    OptionalLong rollingTimeout = timeoutOf(rolling);
    OptionalLong recreateTimeout = timeoutOf(recreate);
    boolean overrides = rollingTimeout.isPresent() && recreateTimeout.isPresent()
        && rollingTimeout.getAsLong() != recreateTimeout.getAsLong();
    List<String> hooks = phases(r, "rollingParams");
    hooks.remove(DcPhase.MID.key());
    if (!hooks.isEmpty() && overrides) {
      return ctx.report(block.key(), "rollingHooksTimeout", String.join(", ", hooks),
          describe(rolling, rollingTimeout), describe(recreate, recreateTimeout));
    }
    if (!hooks.isEmpty()) {
      return ctx.report(block.key(), "rollingHooks", String.join(", ", hooks))
          .fix(move(ctx, strategy, block, "recreateParams"));
    }
    if (overrides) {
      YMap.Entry timeout = rolling.entry("timeoutSeconds");
      return ctx.report(timeout != null ? timeout.key() : block.key(), "rollingTimeout",
          describe(rolling, rollingTimeout), describe(recreate, recreateTimeout));
    }
    return null;
  }

  /**
   * Moves the hooks to the block of the strategy type by renaming their block, when the strategy has no
   * such block yet and the keys mean the same in both (timeoutSeconds, pre, post). Editors only: the hooks
   * then run on every rollout.
   */
  static Fix move(RuleContext ctx, YMap strategy, YMap.Entry block, String target) {
    YMap params = block.value().asMap();
    if (params == null || !params.entries().stream().allMatch(e -> MOVABLE.contains(e.key().value()))) {
      return null;
    }
    return new Fix("Move the hooks to " + target, false, ctx.edits().renameKey(strategy, block.key(), target));
  }

  /** Keys that mean the same in recreateParams and rollingParams. */
  private static final Set<String> MOVABLE = Set.of("timeoutSeconds", "pre", "post");

  /** The phases that carry a hook in one params block. */
  private static List<String> phases(Resource r, String params) {
    List<String> out = new ArrayList<>();
    for (DcHook h : DcHook.of(r)) {
      if (h.form() == DcHook.Form.PARAMS && h.params().equals(params)) {
        out.add(h.phase().key());
      }
    }
    return out;
  }

  /** A block's timeoutSeconds: as written, the default when absent, empty when unknown. */
  private static OptionalLong timeoutOf(YMap block) {
    YNode t = block == null ? null : block.get("timeoutSeconds");
    if (t == null || t instanceof YScalar s && s.type() == YScalar.Type.NULL) {
      return OptionalLong.of(DEFAULT_TIMEOUT);
    }
    return t instanceof YScalar s ? s.asLong() : OptionalLong.empty();
  }

  private static String describe(YMap block, OptionalLong timeout) {
    if (timeout.isEmpty()) {
      return "unknown";
    }
    boolean written = block != null && !DcHook.isBlank(block.get("timeoutSeconds"));
    return timeout.getAsLong() + "s" + (written ? "" : " by default");
  }
}
