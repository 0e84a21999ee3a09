package io.hooklens.run;

import io.hooklens.core.engine.Finding;
import io.hooklens.core.yaml.Range;
import io.hooklens.run.node.Timeline;
import io.hooklens.run.node.Timeline.Mark;
import io.hooklens.run.report.ContainerResult;
import io.hooklens.run.report.EventRecord;
import io.hooklens.run.report.HookResult;
import io.hooklens.run.report.Prediction;
import io.hooklens.run.report.Signal;
import io.hooklens.run.report.Step;
import io.hooklens.run.report.Verdicts;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Builds a report step from what was seen of one pod: the node's timeline (exact, monotonic times) on the
 * embedded cluster, or the API's view on a real one.
 */
final class StepBuilder {
  private static final int SIGKILL_EXIT = 137;

  private final PodPlan plan;
  private final String namespace;
  private final long createdNanos;
  private final long deleteNanos;
  private final Long goneNanos;
  private final List<Finding> findings;
  private final Function<Range, Origin> origins;
  private final long startTimeoutMs;

  /** @param origins where a rendered place comes from, for a chart; null for a plain file */
  StepBuilder(PodPlan plan, String namespace, long createdNanos, long deleteNanos, Long goneNanos,
      List<Finding> findings, Function<Range, Origin> origins, long startTimeoutMs) {
    this.plan = plan;
    this.namespace = namespace;
    this.createdNanos = createdNanos;
    this.deleteNanos = deleteNanos;
    this.goneNanos = goneNanos;
    this.findings = findings;
    this.origins = origins;
    this.startTimeoutMs = startTimeoutMs;
  }

  private Long ms(Long nanos) {
    return nanos == null ? null : (nanos - createdNanos) / 1_000_000;
  }

  /** From the node agent's timeline, which saw every hook start and end. */
  Step fromNode(Timeline timeline, PodObserver observer, List<EventRecord> events) {
    List<Timeline.Entry> entries = timeline.of(namespace + "/" + plan.podName());
    long origin = timeline.origin();
    List<ContainerResult> containers = new ArrayList<>();
    List<HookResult> hooks = new ArrayList<>();
    List<Signal> signals = new ArrayList<>();
    List<String> notes = new ArrayList<>(plan.notes());
    for (Timeline.Entry e : entries) {
      long at = (origin + e.nanos() - createdNanos) / 1_000_000;
      if (e.mark() == Mark.STOP_SIGNAL || e.mark() == Mark.SIGKILL) {
        signals.add(new Signal(e.container(), Timeline.signal(e), at));
      } else if (e.mark() == Mark.WARNING) {
        notes.add(e.container() == null ? e.detail() : "container \"" + e.container() + "\": " + e.detail());
      }
    }
    for (ContainerPlan c : plan.containers()) {
      ContainerRuns runs = new ContainerRuns(c, entries, e -> (origin + e.nanos() - createdNanos) / 1_000_000);
      containers.add(runs.result(observer.container(c.name())));
      hooks.addAll(runs.hooks(this::predictions));
    }
    return withVerdicts(new Step("pod", "delete", plan.resource(), namespace, plan.podName(), plan.graceSeconds(),
        ms(deleteNanos), ms(goneNanos), "node", containers, hooks, signals, events, List.of(), notes));
  }

  /** From the API alone: container states as they were seen, hooks' outcomes from the events. */
  Step fromApi(PodObserver observer, List<EventRecord> events) {
    List<ContainerResult> containers = new ArrayList<>();
    List<HookResult> hooks = new ArrayList<>();
    List<Signal> signals = new ArrayList<>();
    List<String> notes = new ArrayList<>(plan.notes());
    notes.add("times are when the runner saw each change through the API; the node's own times and hook ends "
        + "are not visible from here, and a SIGKILL is inferred from exit code 137");
    for (ContainerPlan c : plan.containers()) {
      PodObserver.Seen seen = observer.container(c.name());
      // Ready is news only where probes decide it; any other container is Ready once Running.
      boolean gated = plan.pod().getSpec().getContainers().stream().anyMatch(s -> c.name().equals(s.getName())
          && (s.getStartupProbe() != null || s.getReadinessProbe() != null));
      containers.add(ContainerResult.seen(c.name(), RunPlan.shell(c.command()), ms(seen.runningNanos),
          gated ? ms(seen.readyNanos) : null, ms(seen.terminatedNanos), seen.exitCode, seen.reason));
      if (seen.exitCode != null && seen.exitCode == SIGKILL_EXIT) {
        signals.add(new Signal(c.name(), "SIGKILL", ms(seen.terminatedNanos)));
      }
      for (PlannedHook h : c.hooks()) {
        boolean post = "postStart".equals(h.hook());
        Optional<EventRecord> failed = events.stream().filter(e -> c.name().equals(e.container())
            && (post ? "FailedPostStartHook" : "FailedPreStopHook").equals(e.reason())).findFirst();
        String status;
        Long start;
        Long end;
        if (post) {
          start = null;
          end = seen.runningNanos != null ? ms(seen.runningNanos) : ms(seen.terminatedNanos);
          status = failed.isPresent() ? "failed" : seen.runningNanos != null ? "succeeded" : "unknown";
        } else {
          start = ms(deleteNanos);
          end = null;
          status = failed.isPresent() ? "failed" : seen.runningNanos != null ? "unknown" : "not-run";
        }
        hooks.add(new HookResult(c.name(), h.hook(), h.description(), start, end, status,
            failed.map(EventRecord::message).orElse(null), "", 0, predictions(h), 0));
      }
    }
    return withVerdicts(new Step("pod", "delete", plan.resource(), namespace, plan.podName(), plan.graceSeconds(),
        ms(deleteNanos), ms(goneNanos), "api", containers, hooks, signals, events, List.of(), notes));
  }

  private Step withVerdicts(Step s) {
    return new Step(s.kind(), s.trigger(), s.resource(), s.namespace(), s.pod(), s.graceSeconds(), s.deleteMs(),
        s.goneMs(), s.timing(), s.containers(), s.hooks(), s.signals(), s.events(), Verdicts.of(s, startTimeoutMs),
        s.notes());
  }

  /** The static findings that start inside the hook's handler. */
  private List<Prediction> predictions(PlannedHook hook) {
    return Predictions.inside(findings, hook.range(), origins);
  }
}
