package io.hooklens.rules.budget;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.Duration;
import io.hooklens.core.model.Handler;
import io.hooklens.core.model.Hook;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.HookDurations;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YScalar;
import java.util.List;
import java.util.OptionalLong;

@RuleInfo(
    id = "HL404",
    name = "probe-grace-below-prestop",
    summary = "A liveness or startup probe's own grace period is not longer than the container's preStop hook",
    severity = Severity.WARNING,
    remediation = "Raise the probe's terminationGracePeriodSeconds to the hook's duration plus the time the app"
        + " needs after SIGTERM, or remove it so that restarts use the pod's grace period.",
    messages = {
        @Message(id = "shorter", text = "Restarts caused by {0} use its own grace period ({1}s), but the preStop"
            + " hook of container \"{2}\" takes {3}; the hook is cut off and the app gets only the kubelet's"
            + " 2-second minimum after SIGTERM."),
        @Message(id = "endless", text = "Restarts caused by {0} use its own grace period ({1}s), and the preStop"
            + " hook of container \"{2}\" never ends on its own; every such restart waits {1}s and the app gets"
            + " only the kubelet's 2-second minimum after SIGTERM.")
    })
public final class ProbeGraceBelowPreStop implements Rule {
  /** The probes whose failures restart the container; readiness probes may not set a grace period. */
  private static final List<String> PROBES = List.of("livenessProbe", "startupProbe");

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Handler h : doc.handlers()) {
      if (h.hook() != Hook.PRE_STOP) {
        continue;
      }
      Duration d = HookDurations.of(h);
      if (!d.unbounded() && d.seconds() <= 0) {
        continue;
      }
      for (String probe : PROBES) {
        YMap p = h.container().node().map(probe);
        YScalar grace = p == null ? null : p.scalar("terminationGracePeriodSeconds");
        OptionalLong g = grace == null ? OptionalLong.empty() : grace.asLong();
        // Zero and negative values are rejected by the API.
        if (g.isEmpty() || g.getAsLong() <= 0) {
          continue;
        }
        String container = h.container().displayName();
        if (d.unbounded()) {
          ctx.report(grace, "endless", probe, g.getAsLong(), container).related(h.key(), "the preStop hook");
        } else if (d.seconds() >= g.getAsLong()) {
          // Equal counts, as in HL401: the hook then uses the whole grace period.
          ctx.report(grace, "shorter", probe, g.getAsLong(), container, d.describe())
              .related(h.key(), "the preStop hook");
        }
      }
    }
  }
}
