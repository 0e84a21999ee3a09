package io.hooklens.rules;

import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleRegistry;
import io.hooklens.rules.budget.PostStartSerialisesRollout;
import io.hooklens.rules.budget.PreStopBudgetExceedsGrace;
import io.hooklens.rules.budget.PreStopLeavesLittleShutdownTime;
import io.hooklens.rules.budget.PreStopWithZeroGrace;
import io.hooklens.rules.budget.ProbeGraceBelowPreStop;
import io.hooklens.rules.helm.HelmAnnotationKeyTypo;
import io.hooklens.rules.helm.HelmAnnotationNotString;
import io.hooklens.rules.helm.HelmHookAnnotationWithoutHook;
import io.hooklens.rules.helm.HelmHookCrdInstall;
import io.hooklens.rules.helm.HelmHookCrdNeverDeleted;
import io.hooklens.rules.helm.HelmHookDeletePolicyUnknown;
import io.hooklens.rules.helm.HelmHookDeleteTimeoutHelm2;
import io.hooklens.rules.helm.HelmHookDuplicateIdentity;
import io.hooklens.rules.helm.HelmHookEmpty;
import io.hooklens.rules.helm.HelmHookExceedsTimeout;
import io.hooklens.rules.helm.HelmHookJobRestartPolicy;
import io.hooklens.rules.helm.HelmHookKeepIgnored;
import io.hooklens.rules.helm.HelmHookNoncanonical;
import io.hooklens.rules.helm.HelmHookNotAwaited;
import io.hooklens.rules.helm.HelmHookNotRecreatable;
import io.hooklens.rules.helm.HelmHookOrderByName;
import io.hooklens.rules.helm.HelmHookOutputLogPolicyIgnored;
import io.hooklens.rules.helm.HelmHookPodNeverCompletes;
import io.hooklens.rules.helm.HelmHookShadowsReleaseResource;
import io.hooklens.rules.helm.HelmHookTestFailure;
import io.hooklens.rules.helm.HelmHookTestMixed;
import io.hooklens.rules.helm.HelmHookTestSuccessDeprecated;
import io.hooklens.rules.helm.HelmHookUnknownEvent;
import io.hooklens.rules.helm.HelmHookWeightNotInteger;
import io.hooklens.rules.helm.HelmResourcePolicyUnknown;
import io.hooklens.rules.input.DuplicateKey;
import io.hooklens.rules.input.InputRejected;
import io.hooklens.rules.input.InvalidSuppression;
import io.hooklens.rules.input.YamlSyntaxError;
import io.hooklens.rules.lifecycle.GracePeriodNegative;
import io.hooklens.rules.lifecycle.LifecycleExecArgvWithSpaces;
import io.hooklens.rules.lifecycle.LifecycleExecEmptyCommand;
import io.hooklens.rules.lifecycle.LifecycleExecShellSyntaxWithoutShell;
import io.hooklens.rules.lifecycle.LifecycleFieldType;
import io.hooklens.rules.lifecycle.LifecycleGrpcNotAField;
import io.hooklens.rules.lifecycle.LifecycleHandlerMultipleActions;
import io.hooklens.rules.lifecycle.LifecycleHandlerNoAction;
import io.hooklens.rules.lifecycle.LifecycleHttpGetDefaults;
import io.hooklens.rules.lifecycle.LifecycleHttpGetHeaderName;
import io.hooklens.rules.lifecycle.LifecycleHttpGetHost;
import io.hooklens.rules.lifecycle.LifecycleHttpGetPortNameInvalid;
import io.hooklens.rules.lifecycle.LifecycleHttpGetPortNameUnknown;
import io.hooklens.rules.lifecycle.LifecycleHttpGetPortRange;
import io.hooklens.rules.lifecycle.LifecycleHttpGetScheme;
import io.hooklens.rules.lifecycle.LifecycleOnEphemeralContainer;
import io.hooklens.rules.lifecycle.LifecycleOnInitContainer;
import io.hooklens.rules.lifecycle.LifecycleSleepOutOfRange;
import io.hooklens.rules.lifecycle.LifecycleSleepUnavailable;
import io.hooklens.rules.lifecycle.LifecycleSleepZero;
import io.hooklens.rules.lifecycle.LifecycleStopSignal;
import io.hooklens.rules.lifecycle.LifecycleTcpSocketUnsupported;
import io.hooklens.rules.lifecycle.PostStartBlocking;
import io.hooklens.rules.lifecycle.PostStartTargetsOwnApp;
import io.hooklens.rules.lifecycle.PreStopOnRunToCompletion;
import io.hooklens.rules.lifecycle.PreStopPreferSleepAction;
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
        new LifecycleHttpGetDefaults(),
        new LifecycleExecEmptyCommand(),
        new LifecycleExecShellSyntaxWithoutShell(),
        new LifecycleExecArgvWithSpaces(),
        new LifecycleOnInitContainer(),
        new LifecycleOnEphemeralContainer(),
        new LifecycleStopSignal(),
        new PostStartBlocking(),
        new PostStartTargetsOwnApp(),
        new PreStopOnRunToCompletion(),
        new GracePeriodNegative(),
        new PreStopPreferSleepAction(),
        new LifecycleFieldType(),
        // Helm hooks
        new HelmHookUnknownEvent(),
        new HelmHookCrdInstall(),
        new HelmHookTestFailure(),
        new HelmHookTestSuccessDeprecated(),
        new HelmHookEmpty(),
        new HelmHookWeightNotInteger(),
        new HelmAnnotationNotString(),
        new HelmHookDeletePolicyUnknown(),
        new HelmHookNotRecreatable(),
        new HelmHookDuplicateIdentity(),
        new HelmHookShadowsReleaseResource(),
        new HelmHookDeleteTimeoutHelm2(),
        new HelmHookAnnotationWithoutHook(),
        new HelmAnnotationKeyTypo(),
        new HelmHookJobRestartPolicy(),
        new HelmHookPodNeverCompletes(),
        new HelmHookOutputLogPolicyIgnored(),
        new HelmHookKeepIgnored(),
        new HelmResourcePolicyUnknown(),
        new HelmHookCrdNeverDeleted(),
        new HelmHookOrderByName(),
        new HelmHookNotAwaited(),
        new HelmHookExceedsTimeout(),
        new HelmHookTestMixed(),
        new HelmHookNoncanonical(),
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
        new PreStopBudgetExceedsGrace(),
        new PreStopLeavesLittleShutdownTime(),
        new PreStopWithZeroGrace(),
        new ProbeGraceBelowPreStop(),
        new PostStartSerialisesRollout());
  }

  public static RuleRegistry registry() {
    return new RuleRegistry(all());
  }
}
