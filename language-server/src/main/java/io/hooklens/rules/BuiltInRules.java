package io.hooklens.rules;

import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleRegistry;
import io.hooklens.rules.budget.PostStartSerialisesRollout;
import io.hooklens.rules.budget.PreStopBudgetExceedsGrace;
import io.hooklens.rules.budget.PreStopLeavesLittleShutdownTime;
import io.hooklens.rules.budget.PreStopWithZeroGrace;
import io.hooklens.rules.budget.ProbeGraceBelowPreStop;
import io.hooklens.rules.input.DuplicateKey;
import io.hooklens.rules.input.InputRejected;
import io.hooklens.rules.input.InvalidSuppression;
import io.hooklens.rules.input.YamlSyntaxError;
import io.hooklens.rules.lifecycle.LifecycleFieldType;
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
        new LifecycleFieldType(),
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
