package io.hooklens.rules;

import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleRegistry;
import io.hooklens.rules.budget.DcHookVsDeadline;
import io.hooklens.rules.budget.PreStopBudgetExceedsGrace;
import io.hooklens.rules.input.DuplicateKey;
import io.hooklens.rules.input.InputRejected;
import io.hooklens.rules.input.InvalidSuppression;
import io.hooklens.rules.input.YamlSyntaxError;
import io.hooklens.rules.lifecycle.LifecycleGrpcNotAField;
import io.hooklens.rules.lifecycle.LifecycleHandlerMultipleActions;
import io.hooklens.rules.lifecycle.LifecycleHandlerNoAction;
import io.hooklens.rules.lifecycle.LifecycleHttpGetHeaderName;
import io.hooklens.rules.lifecycle.LifecycleHttpGetHost;
import io.hooklens.rules.lifecycle.LifecycleHttpGetPortNameInvalid;
import io.hooklens.rules.lifecycle.LifecycleHttpGetPortNameUnknown;
import io.hooklens.rules.lifecycle.LifecycleHttpGetPortRange;
import io.hooklens.rules.lifecycle.LifecycleHttpGetScheme;
import io.hooklens.rules.lifecycle.LifecycleSleepOutOfRange;
import io.hooklens.rules.lifecycle.LifecycleSleepUnavailable;
import io.hooklens.rules.lifecycle.LifecycleSleepZero;
import io.hooklens.rules.lifecycle.LifecycleTcpSocketUnsupported;
import io.hooklens.rules.openshift.DcCustomStrategyHooks;
import io.hooklens.rules.openshift.DcDeadlineVsTimeout;
import io.hooklens.rules.openshift.DcDeprecated;
import io.hooklens.rules.openshift.DcHookPodMissingContext;
import io.hooklens.rules.openshift.DcHookVolumeUnknown;
import io.hooklens.rules.openshift.DcMidHookAbortOutage;
import io.hooklens.rules.openshift.DcPostHookAbort;
import io.hooklens.rules.openshift.DcProposalLifecycleBlock;
import io.hooklens.rules.openshift.DcRetryCannotSucceed;
import io.hooklens.rules.openshift.DcStrategyTimingInvalid;
import java.util.List;

/** Every rule Hooklens ships, in one list: the single place a new rule is registered. */
public final class BuiltInRules {
  private BuiltInRules() {}

  public static List<Rule> all() {
    return List.of(
        // Input and suppressions
        new YamlSyntaxError(),
        new InputRejected(),
        new DuplicateKey(),
        new InvalidSuppression(),
        // Container lifecycle hooks
        new LifecycleHandlerNoAction(),
        new LifecycleHandlerMultipleActions(),
        new LifecycleTcpSocketUnsupported(),
        new LifecycleGrpcNotAField(),
        new LifecycleSleepOutOfRange(),
        new LifecycleSleepZero(),
        new LifecycleSleepUnavailable(),
        new LifecycleHttpGetPortRange(),
        new LifecycleHttpGetPortNameInvalid(),
        new LifecycleHttpGetPortNameUnknown(),
        new LifecycleHttpGetScheme(),
        new LifecycleHttpGetHost(),
        new LifecycleHttpGetHeaderName(),
        // OpenShift DeploymentConfig hooks
        new DcStrategyTimingInvalid(),
        new DcDeadlineVsTimeout(),
        new DcPostHookAbort(),
        new DcMidHookAbortOutage(),
        new DcRetryCannotSucceed(),
        new DcHookVolumeUnknown(),
        new DcHookPodMissingContext(),
        new DcDeprecated(),
        new DcProposalLifecycleBlock(),
        new DcCustomStrategyHooks(),
        // Grace period and hook budgets
        new PreStopBudgetExceedsGrace(),
        new DcHookVsDeadline());
  }

  public static RuleRegistry registry() {
    return new RuleRegistry(all());
  }
}
