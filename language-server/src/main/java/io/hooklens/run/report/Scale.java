package io.hooklens.run.report;

import java.util.ArrayList;
import java.util.List;

/**
 * The time axis of one timeline panel: from 0 to a whole number of seconds that covers every mark and the
 * grace period, with ticks far enough apart to label.
 */
final class Scale {
  private static final long[] STEPS = {1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600};

  final long endMs;
  final long stepSeconds;

  private Scale(long endMs, long stepSeconds) {
    this.endMs = endMs;
    this.stepSeconds = stepSeconds;
  }

  /**
   * @param lastMs the latest time to show
   * @param slots how many ticks fit at most
   */
  static Scale of(long lastMs, int slots) {
    long seconds = Math.max(1, (lastMs + 999) / 1000);
    long step = STEPS[STEPS.length - 1];
    for (long s : STEPS) {
      if (seconds / s + 1 <= Math.max(2, slots)) {
        step = s;
        break;
      }
    }
    long end = ((seconds + step - 1) / step) * step;
    if (end * 1000 <= lastMs) {
      end += step;
    }
    return new Scale(end * 1000, step);
  }

  /** The ticks, in whole seconds. */
  List<Long> ticks() {
    List<Long> ticks = new ArrayList<>();
    for (long t = 0; t * 1000 <= endMs; t += stepSeconds) {
      ticks.add(t);
    }
    return ticks;
  }

  /** Where a time falls on an axis of {@code length} units (0 to length). */
  double at(long ms, double length) {
    return Math.max(0, Math.min(length, ms * length / endMs));
  }

  /**
   * When a container's stop began: the pod's deletion, or earlier when the node killed it before (a failed
   * postStart), as its first preStop start or signal shows.
   */
  static long stopStart(Step step, String container) {
    long start = step.deleteMs() == null ? Long.MAX_VALUE : step.deleteMs();
    for (HookResult h : step.hooks()) {
      if (h.container().equals(container) && "preStop".equals(h.hook()) && h.startMs() != null) {
        start = Math.min(start, h.startMs());
      }
    }
    for (Signal s : step.signals()) {
      if (s.container().equals(container)) {
        start = Math.min(start, s.atMs());
      }
    }
    return start == Long.MAX_VALUE ? 0 : start;
  }

  /** Where a step's termination panel starts: the first container's stop. */
  static long stopStart(Step step) {
    return step.containers().stream().mapToLong(c -> stopStart(step, c.name())).min()
        .orElse(step.deleteMs() == null ? 0 : step.deleteMs());
  }

  /** The latest time on a step's termination panel, relative to its start, and on its start panel. */
  static long lastAfterStop(Step step) {
    long delete = stopStart(step);
    long last = step.graceSeconds() * 1000;
    for (Signal s : step.signals()) {
      last = Math.max(last, s.atMs() - delete);
    }
    for (ContainerResult c : step.containers()) {
      if (c.exitedMs() != null) {
        last = Math.max(last, c.exitedMs() - delete);
      }
    }
    for (HookResult h : step.hooks()) {
      if ("preStop".equals(h.hook()) && h.endMs() != null) {
        last = Math.max(last, h.endMs() - delete);
      }
    }
    return last;
  }

  static long lastBeforeDelete(Step step) {
    long last = 0;
    for (HookResult h : step.hooks()) {
      if ("postStart".equals(h.hook()) && h.endMs() != null) {
        last = Math.max(last, h.endMs());
      }
    }
    long delete = step.deleteMs() == null ? Long.MAX_VALUE : step.deleteMs();
    for (ContainerResult c : step.containers()) {
      for (ContainerResult.Attempt a : c.attempts()) {
        for (Long at : new Long[] {a.startedMs(), a.runningMs(), a.exitedMs()}) {
          if (at != null && at < delete) {
            last = Math.max(last, at);
          }
        }
      }
      for (ContainerResult.ProbeMark p : c.probes()) {
        if (p.atMs() < delete) {
          last = Math.max(last, p.atMs());
        }
      }
    }
    return last;
  }
}
