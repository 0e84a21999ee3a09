package io.hooklens.rules;

import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleRegistry;
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
import io.hooklens.rules.openshift.DcExecNewPodContainerUnknown;
import io.hooklens.rules.openshift.DcHookBothActions;
import io.hooklens.rules.openshift.DcHookContainerNameMissing;
import io.hooklens.rules.openshift.DcHookEmptyCommand;
import io.hooklens.rules.openshift.DcHookFailurePolicyInvalid;
import io.hooklens.rules.openshift.DcHookMissingFailurePolicy;
import io.hooklens.rules.openshift.DcHookNoAction;
import io.hooklens.rules.openshift.DcHooksInInactiveParams;
import io.hooklens.rules.openshift.DcRollingMidHook;
import io.hooklens.rules.openshift.DcTagImagesContainerUnknown;
import io.hooklens.rules.openshift.DcTagImagesTargetInvalid;
import io.hooklens.rules.openshift.DeploymentHasDcHooks;
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
        new DcHookMissingFailurePolicy(),
        new DcHookFailurePolicyInvalid(),
        new DcHookBothActions(),
        new DcHookNoAction(),
        new DcHookEmptyCommand(),
        new DcHookContainerNameMissing(),
        new DcExecNewPodContainerUnknown(),
        new DcTagImagesContainerUnknown(),
        new DcTagImagesTargetInvalid(),
        new DcRollingMidHook(),
        new DcHooksInInactiveParams(),
        new DeploymentHasDcHooks(),
        // Grace period and hook budgets
        new PreStopBudgetExceedsGrace());
  }

  public static RuleRegistry registry() {
    return new RuleRegistry(all());
  }
}
