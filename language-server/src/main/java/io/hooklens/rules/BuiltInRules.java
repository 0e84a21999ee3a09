package io.hooklens.rules;

import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleRegistry;
import io.hooklens.rules.budget.PreStopBudgetExceedsGrace;
import io.hooklens.rules.helm.HelmAnnotationKeyTypo;
import io.hooklens.rules.helm.HelmHookCrdNeverDeleted;
import io.hooklens.rules.helm.HelmHookExceedsTimeout;
import io.hooklens.rules.helm.HelmHookJobRestartPolicy;
import io.hooklens.rules.helm.HelmHookKeepIgnored;
import io.hooklens.rules.helm.HelmHookNoncanonical;
import io.hooklens.rules.helm.HelmHookNotAwaited;
import io.hooklens.rules.helm.HelmHookOrderByName;
import io.hooklens.rules.helm.HelmHookOutputLogPolicyIgnored;
import io.hooklens.rules.helm.HelmHookPodNeverCompletes;
import io.hooklens.rules.helm.HelmHookTestMixed;
import io.hooklens.rules.helm.HelmResourcePolicyUnknown;
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
        // Grace period and hook budgets
        new PreStopBudgetExceedsGrace());
  }

  public static RuleRegistry registry() {
    return new RuleRegistry(all());
  }
}
