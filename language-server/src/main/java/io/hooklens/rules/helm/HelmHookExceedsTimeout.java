package io.hooklens.rules.helm;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Param;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.engine.Targets;
import io.hooklens.core.model.Container;
import io.hooklens.core.model.Duration;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.HookDurations;
import io.hooklens.core.model.PodSpec;
import io.hooklens.core.model.helm.HelmHook;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YScalar;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

@RuleInfo(
    id = "HL223",
    name = "helm-hook-exceeds-timeout",
    summary = "A hook Job or Pod may run longer than Helm waits for a hook",
    severity = Severity.WARNING,
    remediation = "Keep the hook within Helm's --timeout (activeDeadlineSeconds at most that long), or raise"
        + " --timeout and set helmTimeoutSeconds to match.",
    params = HelmHookExceedsTimeout.Params.class,
    messages = {
        @Message(id = "deadline", text = "{3} waits at most {0}s for each hook ({4}, 5m by default), but"
            + " activeDeadlineSeconds lets this {1} run for {2}s; a run that takes longer than {0}s fails the"
            + " release while the {1} keeps running."),
        @Message(id = "runtime", text = "{3} waits at most {0}s for each hook ({4}, 5m by default), but this {1}"
            + " runs for {2} by its sleep commands alone; the release fails after {0}s while the {1} keeps"
            + " running."),
        @Message(id = "endless", text = "{3} waits at most {0}s for each hook ({4}, 5m by default), but this {1}"
            + " never ends on its own; the release fails after {0}s while the {1} keeps running.")
    })
public final class HelmHookExceedsTimeout implements Rule {
  /** Parameters of HL223. */
  public record Params(
      @Param(description = "Seconds Helm waits for each hook: the --timeout given to helm install, upgrade,"
          + " rollback, uninstall and test, or a Flux HelmRelease's spec.timeout", defaultValue = "300")
      int helmTimeoutSeconds) {}

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    Targets targets = ctx.targets();
    // Argo CD gives a hook no time limit of its own.
    if (targets.argoCd()) {
      return;
    }
    long timeout = ctx.params(Params.class).helmTimeoutSeconds();
    String who = HookRunner.name(targets);
    String knob = targets.deployer() == Targets.Deployer.FLUX ? "the HelmRelease's spec.timeout" : "--timeout";
    for (HelmHook h : HelmHook.in(doc)) {
      PodSpec pod = h.isAwaited() ? h.podSpec(doc) : null;
      // A Pod that restarts for ever never completes at all, which HL216 reports.
      if (pod == null || (h.kind().equals("Pod") && !completes(pod))) {
        continue;
      }
      YScalar deadlineNode = deadline(h, pod);
      OptionalLong deadline = deadlineNode == null ? OptionalLong.empty() : deadlineNode.asLong();
      if (deadlineNode != null && deadline.isEmpty()) {
        // A deadline that is not a known integer (a template expression) could end the run at any point.
        continue;
      }
      if (deadline.isPresent()) {
        // A deadline within the timeout stops the run before Helm gives up, whatever it sleeps.
        if (deadline.getAsLong() > timeout) {
          ctx.report(deadlineNode, "deadline", timeout, h.kind(), deadline.getAsLong(), who, knob);
        }
        continue;
      }
      Longest longest = runtime(doc, pod);
      if (longest == null) {
        continue;
      }
      if (longest.total().unbounded()) {
        ctx.report(longest.at(), "endless", timeout, h.kind(), "", who, knob);
      } else if (longest.total().seconds() >= timeout) {
        // Equal counts too: scheduling and image pulls come on top of the sleeps.
        ctx.report(longest.at(), "runtime", timeout, h.kind(), longest.total().describe(), who, knob);
      }
    }
  }

  private static boolean completes(PodSpec pod) {
    String p = pod.restartPolicy();
    return p != null && !p.equals("Always");
  }

  /** The Job's own deadline, else the pod's; null when neither is written. */
  private static YScalar deadline(HelmHook h, PodSpec pod) {
    YMap spec = h.resource().root().map("spec");
    YScalar d = h.kind().equals("Job") && spec != null ? spec.scalar("activeDeadlineSeconds") : null;
    if (d == null || d.type() == YScalar.Type.NULL) {
      d = pod.node().scalar("activeDeadlineSeconds");
    }
    return d == null || d.type() == YScalar.Type.NULL ? null : d;
  }

  /** The pod's estimated run time and the command that contributes most to it. */
  private record Longest(Duration total, YNode at) {}

  /**
   * Init containers run one after another, then the regular containers together; sidecars run alongside
   * and do not hold the pod up. Only literal sleeps count, so the estimate is a lower bound.
   */
  private static Longest runtime(HookDocument doc, PodSpec pod) {
    Duration init = Duration.ZERO;
    Duration regular = Duration.ZERO;
    Duration longest = Duration.ZERO;
    YNode at = null;
    for (Container c : doc.containers()) {
      if (c.pod().node() != pod.node() || c.kind() == Container.Kind.EPHEMERAL || c.isSidecar()) {
        continue;
      }
      Duration d = ofContainer(c.node());
      if (c.kind() == Container.Kind.INIT) {
        init = init.plus(d);
      } else if (longer(d, regular)) {
        regular = d;
      }
      if (longer(d, longest)) {
        longest = d;
        // With "sh -c" in command, the script that sleeps is in args.
        at = (c.node().get("args") != null ? c.node().entry("args") : c.node().entry("command")).key();
      }
    }
    return at == null ? null : new Longest(init.plus(regular), at);
  }

  private static boolean longer(Duration a, Duration b) {
    return a.seconds() > b.seconds();
  }

  /** What {@code command} and {@code args} together run for, from the sleeps they spell out. */
  private static Duration ofContainer(YMap c) {
    YNode command = c.get("command");
    YNode args = c.get("args");
    if (command == null) {
      return Duration.UNKNOWN;
    }
    if (args == null) {
      return HookDurations.ofCommand(command);
    }
    List<String> cmd = HookDurations.argv(command);
    List<String> rest = HookDurations.argv(args);
    if (cmd == null || rest == null) {
      return Duration.UNKNOWN;
    }
    List<String> argv = new ArrayList<>(cmd);
    argv.addAll(rest);
    String script = HookDurations.shellScript(argv);
    return script == null ? Duration.UNKNOWN : HookDurations.ofScript(script);
  }
}
