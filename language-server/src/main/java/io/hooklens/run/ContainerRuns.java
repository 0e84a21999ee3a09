package io.hooklens.run;

import io.hooklens.run.kube.BoundedOutput;
import io.hooklens.run.node.Timeline;
import io.hooklens.run.node.Timeline.Mark;
import io.hooklens.run.report.ContainerResult;
import io.hooklens.run.report.HookResult;
import io.hooklens.run.report.Prediction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * One container's runs, folded from the node's timeline in order: each run begins where its process started and
 * holds the hooks that ran for it, its Running mark and its exit.
 */
final class ContainerRuns {
  private static final String EXIT_CODE = "exit code ";

  /** What the timeline shows of one run. */
  private static final class Run {
    Timeline.Entry started;
    Timeline.Entry running;
    Timeline.Entry exited;
    Timeline.Entry hookStarted;
    Timeline.Entry hookEnded;
    Timeline.Entry preStopStarted;
    Timeline.Entry preStopEnded;
    Timeline.Entry preStopCut;
  }

  private final ContainerPlan plan;
  private final ToLongFunction<Timeline.Entry> ms;
  private final List<Run> runs = new ArrayList<>();
  // What each run printed, by its restartCount: a run's output is read after its exit, maybe after the next start.
  private final Map<Integer, Timeline.Entry> outputs = new HashMap<>();
  private final List<Timeline.Entry> probes = new ArrayList<>();

  /** @param ms an entry's time, in milliseconds since the step began */
  ContainerRuns(ContainerPlan plan, List<Timeline.Entry> entries, ToLongFunction<Timeline.Entry> ms) {
    this.plan = plan;
    this.ms = ms;
    for (Timeline.Entry e : entries) {
      if (plan.name().equals(e.container())) {
        add(e);
      }
    }
  }

  private void add(Timeline.Entry e) {
    if (e.mark() == Mark.OUTPUT) {
      outputs.put(Integer.parseInt(e.detail()), e);
      return;
    }
    if (e.mark() == Mark.READY || e.mark() == Mark.NOT_READY || e.mark() == Mark.PROBE_FAILED
        || e.mark() == Mark.PROBE_KILL) {
      probes.add(e);
      return;
    }
    if (e.mark() == Mark.CONTAINER_STARTED) {
      runs.add(new Run());
    }
    if (runs.isEmpty()) {
      return;
    }
    Run run = runs.get(runs.size() - 1);
    switch (e.mark()) {
      case CONTAINER_STARTED -> run.started = e;
      case RUNNING -> run.running = e;
      case EXITED -> run.exited = e;
      case POST_START_STARTED -> run.hookStarted = e;
      case POST_START_ENDED -> run.hookEnded = e;
      case PRE_STOP_STARTED -> run.preStopStarted = run.preStopStarted == null ? e : run.preStopStarted;
      case PRE_STOP_ENDED -> run.preStopEnded = run.preStopEnded == null ? e : run.preStopEnded;
      case PRE_STOP_ABANDONED -> run.preStopCut = run.preStopCut == null ? e : run.preStopCut;
      default -> { }
    }
  }

  /** @param seen the container as the API showed it, for one that never started */
  ContainerResult result(PodObserver.Seen seen) {
    if (runs.isEmpty()) {
      return new ContainerResult(plan.name(), RunPlan.shell(plan.command()), null, null, null, seen.exitCode,
          seen.reason, 0, List.of(), "", 0, null, List.of());
    }
    List<ContainerResult.Attempt> attempts = new ArrayList<>();
    List<BoundedOutput.Tail> tails = new ArrayList<>();
    for (int i = 0; i < runs.size(); i++) {
      Run run = runs.get(i);
      Long next = i + 1 < runs.size() ? at(runs.get(i + 1).started) : null;
      Long exited = at(run.exited);
      Integer code = exitCode(run.exited);
      BoundedOutput.Tail printed = printed(i);
      attempts.add(new ContainerResult.Attempt(i, at(run.started), at(run.running), exited, code,
          code == null ? null : code == 0 ? "Completed" : "Error", next == null || exited == null ? null : next - exited,
          printed.text(), printed.droppedBytes()));
      tails.add(printed);
    }
    ContainerResult.Attempt first = attempts.get(0);
    ContainerResult.Attempt last = attempts.get(attempts.size() - 1);
    BoundedOutput.Tail all = BoundedOutput.join(tails);
    return new ContainerResult(plan.name(), RunPlan.shell(plan.command()), first.startedMs(), first.runningMs(),
        last.exitedMs(), last.exitCode(), last.reason(), runs.size() - 1, List.copyOf(attempts), all.text(),
        all.droppedBytes(), probes.stream().filter(e -> e.mark() == Mark.READY).findFirst().map(this::at).orElse(null),
        probeMarks());
  }

  private List<ContainerResult.ProbeMark> probeMarks() {
    return probes.stream().map(e -> new ContainerResult.ProbeMark(at(e), switch (e.mark()) {
      case READY -> ContainerResult.ProbeMark.READY;
      case NOT_READY -> ContainerResult.ProbeMark.NOT_READY;
      case PROBE_KILL -> ContainerResult.ProbeMark.KILLING;
      default -> ContainerResult.ProbeMark.UNHEALTHY;
    }, e.detail())).toList();
  }

  /** The container's hooks: a postStart for every run that ran it, its preStop once. */
  List<HookResult> hooks(Function<PlannedHook, List<Prediction>> predictions) {
    List<HookResult> hooks = new ArrayList<>();
    for (PlannedHook h : plan.hooks()) {
      boolean post = "postStart".equals(h.hook());
      boolean ran = false;
      for (int i = 0; i < runs.size(); i++) {
        Run run = runs.get(i);
        Timeline.Entry start = post ? run.hookStarted : run.preStopStarted;
        if (start != null) {
          hooks.add(hook(h, i, start, post ? run.hookEnded : run.preStopEnded, post ? null : run.preStopCut,
              predictions.apply(h)));
          ran = true;
        }
      }
      if (!ran) {
        hooks.add(new HookResult(plan.name(), h.hook(), h.description(), null, null, "not-run", null, "", 0,
            predictions.apply(h), Math.max(0, runs.size() - 1)));
      }
    }
    return hooks;
  }

  private HookResult hook(PlannedHook h, int attempt, Timeline.Entry start, Timeline.Entry end, Timeline.Entry cut,
      List<Prediction> predicted) {
    String status;
    Timeline.Entry last;
    String message = null;
    if (cut != null && (end == null || end.nanos() > cut.nanos())) {
      status = "cut-off";
      last = cut;
      message = cut.detail().strip();
    } else if (end != null) {
      status = end.failed() ? "failed" : "succeeded";
      last = end;
      message = end.failed() ? end.detail().strip() : null;
    } else {
      status = "running";
      last = null;
    }
    return new HookResult(plan.name(), h.hook(), h.description(), at(start), at(last), status, message,
        end == null ? "" : end.output(), end == null ? 0 : end.outputDroppedBytes(), predicted, attempt);
  }

  private BoundedOutput.Tail printed(int run) {
    Timeline.Entry e = outputs.get(run);
    return e == null ? BoundedOutput.Tail.EMPTY : new BoundedOutput.Tail(e.output(), e.outputDroppedBytes());
  }

  private Long at(Timeline.Entry e) {
    return e == null ? null : ms.applyAsLong(e);
  }

  private static Integer exitCode(Timeline.Entry exited) {
    if (exited == null || !exited.detail().startsWith(EXIT_CODE)) {
      return null;
    }
    try {
      return Integer.parseInt(exited.detail().substring(EXIT_CODE.length()).strip());
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
