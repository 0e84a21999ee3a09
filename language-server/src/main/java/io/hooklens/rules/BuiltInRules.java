package io.hooklens.rules;

import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleRegistry;
import io.hooklens.rules.budget.PreStopBudgetExceedsGrace;
import io.hooklens.rules.input.DuplicateKey;
import io.hooklens.rules.input.HelmRenderFailed;
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
        new HelmRenderFailed(),
        // Container lifecycle hooks
        new LifecycleHandlerNoAction(),
        new LifecycleSleepOutOfRange(),
        // Grace period and hook budgets
        new PreStopBudgetExceedsGrace());
  }

  public static RuleRegistry registry() {
    return new RuleRegistry(all());
  }
}
