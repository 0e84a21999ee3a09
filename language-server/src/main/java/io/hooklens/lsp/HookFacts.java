package io.hooklens.lsp;

import io.hooklens.core.model.Duration;
import io.hooklens.core.model.Handler;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.HookDurations;
import io.hooklens.core.model.PodSpec;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.Termination;
import io.hooklens.core.model.helm.DeletePolicy;
import io.hooklens.core.model.helm.HelmEvent;
import io.hooklens.core.model.helm.HookPlan;
import io.hooklens.core.model.openshift.DcPhase;
import io.hooklens.core.model.openshift.FailurePolicy;
import io.hooklens.core.yaml.YScalar;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * What hover, inlay hints and completion say about hooks: when each one runs (the kubelet's, Helm's and
 * the OpenShift deployer's semantics as RULES.md reads them), a preStop hook's budget against its grace
 * period, and a Helm hook's place in its events.
 */
final class HookFacts {
  static final String PRE_STOP = "The kubelet runs preStop when it stops the container: deletion, eviction, preemption,"
      + " a failed liveness or startup probe, a failed postStart. Never when the process exits on its own. The grace"
      + " period (`terminationGracePeriodSeconds`) counts from before preStop: when the hook ends, the container"
      + " gets SIGTERM and whatever remains of the grace period (at least 2 s), then SIGKILL. A hook still running"
      + " at the deadline is overtaken. A failing hook only records a `FailedPreStopHook` event.";

  static final String POST_START = "The kubelet runs postStart right after it starts the container, concurrently with"
      + " the entrypoint: nothing orders the two, so the app may not listen yet. The container is not Running, and"
      + " the containers after it do not start, until the hook returns; exec hooks have no timeout. A failing hook"
      + " records `FailedPostStartHook`, and the container is killed and restarted as its `restartPolicy` says.";

  private static final Map<HelmEvent, String> EVENTS = Map.of(
      HelmEvent.PRE_INSTALL, "on install, after the templates render, before any resource is created",
      HelmEvent.POST_INSTALL, "on install, after every resource of the release is created",
      HelmEvent.PRE_DELETE, "on uninstall, before any resource of the release is deleted",
      HelmEvent.POST_DELETE, "on uninstall, after every resource of the release is deleted",
      HelmEvent.PRE_UPGRADE, "on upgrade, after the templates render, before any resource is updated",
      HelmEvent.POST_UPGRADE, "on upgrade, after every resource is updated",
      HelmEvent.PRE_ROLLBACK, "on rollback, after the templates render, before any resource is rolled back",
      HelmEvent.POST_ROLLBACK, "on rollback, after every resource is rolled back",
      HelmEvent.TEST, "when `helm test` runs");

  private static final Map<String, String> DC_PHASES = Map.of(
      DcPhase.PRE.key(), "before the deployment starts: before any pod of the new version is created",
      DcPhase.MID.key(), "Recreate only: after the old pods are scaled down and before the new ones are created,"
          + " while no pod serves",
      DcPhase.POST.key(), "after the new version is rolled out and live");

  private static final Map<String, String> DC_POLICIES = Map.of(
      FailurePolicy.ABORT.value(), "a failing hook fails the rollout; the previous version is scaled back up",
      FailurePolicy.RETRY.value(), "the hook pod is run again until it succeeds or the rollout's"
          + " activeDeadlineSeconds passes (tagImages are not retried)",
      FailurePolicy.IGNORE.value(), "a failing hook is recorded and the rollout goes on");

  private HookFacts() {}

  /** When Helm runs an event's hooks; null for an event Helm does not know. */
  static String event(String event) {
    if (HelmEvent.TEST_SUCCESS.equals(event)) {
      return EVENTS.get(HelmEvent.TEST) + " (a deprecated alias of test)";
    }
    HelmEvent known = HelmEvent.parse(event);
    return known == null ? null : EVENTS.get(known);
  }

  /** What a Helm delete policy does. */
  static String deletePolicy(DeletePolicy policy) {
    return switch (policy) {
      case BEFORE_HOOK_CREATION -> "the previous hook object is deleted before this one is created (Helm's default)";
      case HOOK_SUCCEEDED -> "the object is deleted once the hook succeeded";
      case HOOK_FAILED -> "the object is deleted if the hook failed";
    };
  }

  /** When the OpenShift deployer runs a DeploymentConfig hook phase. */
  static String dcPhase(String phase) {
    return DC_PHASES.get(phase);
  }

  /** What a DeploymentConfig failure policy does; null for a value the deployer does not know. */
  static String dcPolicy(String policy) {
    return DC_POLICIES.get(policy);
  }

  /**
   * A preStop hook's estimated duration against its pod's grace period.
   *
   * @param grace the effective grace period; empty when a template sets it
   */
  record Budget(Duration duration, OptionalLong grace, boolean graceDefault) {
    static Budget of(Handler h) {
      PodSpec pod = h.pod();
      return new Budget(HookDurations.of(h), pod.grace(), pod.graceIsDefault());
    }

    /** The hook's duration in a few characters: {@code 35 s}, {@code ≥ 20 s}, {@code unbounded}, {@code ? s}. */
    String shortDuration() {
      if (duration.unbounded()) {
        return "unbounded";
      }
      if (!duration.exact() && duration.seconds() == 0) {
        return "? s";
      }
      return (duration.exact() ? "" : "≥ ") + Duration.format(duration.seconds()) + " s";
    }

    /** {@code 35 s of 30 s grace}, as an inlay hint. */
    String hint() {
      String g = grace.isPresent() ? grace.getAsLong() + " s grace" + (graceDefault ? " (default)" : "")
          : "grace from template";
      return duration.unbounded() ? "unbounded, " + g : shortDuration() + " of " + g;
    }

    /** The stop as a small timeline, seconds from the start of the grace period. */
    List<String> timeline() {
      List<String> lines = new ArrayList<>();
      if (grace.isEmpty()) {
        lines.add("the grace period comes from a template, so the stop's timeline is known only once rendered");
        return lines;
      }
      long g = grace.getAsLong();
      if (g <= 0) {
        lines.add("terminationGracePeriodSeconds is " + g + ": the hook is skipped or gets about one second,"
            + " depending on how the pod is stopped");
        return lines;
      }
      lines.add(row("0 s", "grace period of " + g + " s starts; preStop runs"));
      double sigterm = Termination.sigterm(g, duration.seconds());
      if (duration.unbounded() || duration.seconds() >= g) {
        lines.add(row(g + " s", "grace period over: preStop is overtaken, SIGTERM"));
      } else if (!duration.exact() && duration.seconds() == 0) {
        lines.add(row("?", "preStop ends (its duration is unknown), SIGTERM"));
        lines.add(row(g + " s", "SIGKILL, if the app still runs (at least 2 s after SIGTERM)"));
        return lines;
      } else {
        lines.add(row(shortDuration(), "preStop ends, SIGTERM"));
      }
      double sigkill = Termination.sigkill(g, sigterm);
      lines.add(row(Duration.format(sigkill) + " s", "SIGKILL, if the app still runs" + (sigkill > g
          ? " (the kubelet's 2-second minimum after SIGTERM)" : "")));
      return lines;
    }

    private static String row(String at, String what) {
      return String.format("%8s  %s", at, what);
    }
  }

  /** {@code #2 of pre-install (weight -5)}, as an inlay hint; a place templates could change is marked. */
  static String placeHint(HookPlan.Place p) {
    return "#" + p.position() + (p.certain() ? "" : "?") + " of " + p.event() + " (weight " + p.weight() + ")";
  }

  /** {@code Job/migrate}, with a templated name as the template writes it. */
  static String displayName(HookDocument doc, Resource r) {
    YScalar name = r.metadata() == null ? null : r.metadata().scalar("name");
    String n = name == null ? "(no name)" : doc.parsed().display(name);
    return (r.kind() == null ? "(no kind)" : r.kind()) + "/" + n;
  }
}
