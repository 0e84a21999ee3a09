package io.hooklens.rules;

import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleRegistry;
import io.hooklens.rules.budget.PreStopBudgetExceedsGrace;
import io.hooklens.rules.helm.HelmAnnotationNotString;
import io.hooklens.rules.helm.HelmHookAnnotationWithoutHook;
import io.hooklens.rules.helm.HelmHookCrdInstall;
import io.hooklens.rules.helm.HelmHookDeletePolicyUnknown;
import io.hooklens.rules.helm.HelmHookDeleteTimeoutHelm2;
import io.hooklens.rules.helm.HelmHookDuplicateIdentity;
import io.hooklens.rules.helm.HelmHookEmpty;
import io.hooklens.rules.helm.HelmHookNotRecreatable;
import io.hooklens.rules.helm.HelmHookShadowsReleaseResource;
import io.hooklens.rules.helm.HelmHookTestFailure;
import io.hooklens.rules.helm.HelmHookTestSuccessDeprecated;
import io.hooklens.rules.helm.HelmHookUnknownEvent;
import io.hooklens.rules.helm.HelmHookWeightNotInteger;
import io.hooklens.rules.input.DuplicateKey;
import io.hooklens.rules.input.InputRejected;
import io.hooklens.rules.input.InvalidSuppression;
import io.hooklens.rules.input.YamlSyntaxError;
import io.hooklens.rules.lifecycle.LifecycleHandlerNoAction;
import io.hooklens.rules.lifecycle.LifecycleSleepOutOfRange;
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
        new LifecycleSleepOutOfRange(),
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
        // Grace period and hook budgets
        new PreStopBudgetExceedsGrace());
  }

  public static RuleRegistry registry() {
    return new RuleRegistry(all());
  }
}
