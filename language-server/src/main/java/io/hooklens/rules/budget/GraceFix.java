package io.hooklens.rules.budget;

import io.hooklens.core.engine.Fix;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.model.PodSpec;

/**
 * The fix of a preStop budget against the grace period: set terminationGracePeriodSeconds to the
 * hook's duration, rounded up, plus the shutdown time of the rule's parameter. The duration is the
 * estimate the finding states, exact or a lower bound, never an unbounded one (no fix is offered then).
 * Editors only: a longer grace period changes how long every stop may take.
 */
final class GraceFix {
  private GraceFix() {}

  static Fix raise(RuleContext ctx, PodSpec pod, long seconds) {
    String title = "Set terminationGracePeriodSeconds to " + seconds;
    if (pod.graceNode() != null) {
      return new Fix(title, false, ctx.edits().replaceLiteral(pod.graceNode(), String.valueOf(seconds)));
    }
    if (pod.hidesContent()) {
      return null; // template output the reader cannot see may set it
    }
    return new Fix(title, false, ctx.edits().insertNumber(pod.node(), "terminationGracePeriodSeconds", seconds));
  }
}
