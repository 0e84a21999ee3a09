package io.hooklens.rules.lifecycle;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.engine.Version;
import io.hooklens.core.model.Handler;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YScalar;
import java.util.List;
import java.util.Map;

@RuleInfo(
    id = "HL107",
    name = "lifecycle-sleep-unavailable",
    summary = "A sleep action is used on a Kubernetes version that does not run it by default",
    severity = Severity.WARNING,
    fixable = true,
    remediation = "Run Kubernetes 1.30 or later, or replace the action with exec: {command: [\"sleep\", \"N\"]}"
        + " (the image then needs a sleep binary).",
    messages = {
        @Message(id = "gateOffOnly", text = "On Kubernetes {0} the sleep action is alpha and its"
            + " PodLifecycleSleepAction gate is off by default: the API server silently removes it, and with it"
            + " the whole {1} hook. It works from 1.30 on."),
        @Message(id = "gateOff", text = "On Kubernetes {0} the sleep action is alpha and its"
            + " PodLifecycleSleepAction gate is off by default: the API server silently removes it from {1}."
            + " It works from 1.30 on."),
        @Message(id = "unknownOnly", text = "Kubernetes {0} has no sleep action (alpha in 1.29, on by default"
            + " from 1.30): the field is unknown and dropped, which leaves {1} with no action, so the API rejects"
            + " it."),
        @Message(id = "unknown", text = "Kubernetes {0} has no sleep action (alpha in 1.29, on by default from"
            + " 1.30): the field is unknown and dropped, so it never runs.")
    })
public final class LifecycleSleepUnavailable implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    Version target = ctx.targets().kubernetes();
    if (!target.isBefore(1, 30)) {
      return;
    }
    boolean known = !target.isBefore(1, 29);
    for (Handler h : doc.handlers()) {
      List<String> actions = h.actions();
      if (!actions.contains("sleep")) {
        continue;
      }
      boolean only = actions.size() == 1;
      String id = known ? (only ? "gateOffOnly" : "gateOff") : (only ? "unknownOnly" : "unknown");
      YMap.Entry sleep = h.map().entry("sleep");
      YMap args = sleep.value().asMap();
      YScalar seconds = args == null ? null : args.scalar("seconds");
      var reported = ctx.report(sleep.key(), id, target, h.hook().field());
      if (seconds != null && seconds.asLong().isPresent()) {
        // Not applied by --fix: the image then needs a sleep binary.
        reported.fix("Replace with exec sleep", false, ctx.edits().replaceEntry(sleep, "exec",
            Map.of("command", List.of("sleep", String.valueOf(seconds.asLong().getAsLong())))));
      }
    }
  }
}
