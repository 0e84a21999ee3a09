package io.hooklens.rules.budget;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Param;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.Duration;
import io.hooklens.core.model.Handler;
import io.hooklens.core.model.Hook;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.HookDurations;
import io.hooklens.core.model.Resource;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YScalar;
import java.util.OptionalLong;

@RuleInfo(
    id = "HL406",
    name = "poststart-serialises-rollout",
    summary = "A long postStart hook in a StatefulSet whose pods start one after another",
    severity = Severity.INFO,
    remediation = "Move the work out of postStart (into the entrypoint, an init container or a startupProbe), or"
        + " set podManagementPolicy: Parallel if the pods do not depend on each other's order.",
    params = PostStartSerialisesRollout.Params.class,
    messages = @Message(id = "serialised", text = "{0} takes {1} and the pod is not ready until it returns; with"
        + " podManagementPolicy {2}, StatefulSet pods start one after another, so this adds {1} per replica to"
        + " every rollout{3}."))
public final class PostStartSerialisesRollout implements Rule {
  /** Parameters of HL406. */
  public record Params(
      @Param(description = "Seconds from which a postStart hook counts as long; the same threshold as HL121's"
          + " postStartMaxSeconds", defaultValue = "10")
      int postStartMaxSeconds) {}

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    int threshold = ctx.params(Params.class).postStartMaxSeconds();
    for (Handler h : doc.handlers()) {
      Resource owner = h.pod().owner();
      YMap spec = owner.root().map("spec");
      if (h.hook() != Hook.POST_START || !"StatefulSet".equals(owner.kind()) || spec == null) {
        continue;
      }
      YScalar policy = spec.scalar("podManagementPolicy");
      boolean defaulted = policy == null || policy.type() == YScalar.Type.NULL;
      if (!defaulted && !policy.value().equals("OrderedReady")) {
        continue;
      }
      OptionalLong replicas = replicas(spec);
      if (replicas.isPresent() && replicas.getAsLong() <= 1) {
        continue;
      }
      Duration d = HookDurations.of(h);
      // A hook that never returns keeps the first pod from ever starting: HL121 says so.
      if (d.unbounded() || d.seconds() < threshold) {
        continue;
      }
      String total = replicas.isEmpty() ? ""
          : " (" + new Duration(d.seconds() * replicas.getAsLong(), d.exact(), false).describe() + " for "
              + replicas.getAsLong() + " replicas)";
      var r = ctx.report(h.key(), "serialised", h.describe(), d.describe(),
          defaulted ? "OrderedReady (the default)" : "OrderedReady", total);
      if (!defaulted) {
        r.related(policy, "the pod management policy");
      }
    }
  }

  /** {@code spec.replicas} when written as an integer; absent or templated replicas are unknown. */
  private static OptionalLong replicas(YMap spec) {
    YScalar r = spec.scalar("replicas");
    return r == null ? OptionalLong.empty() : r.asLong();
  }
}
