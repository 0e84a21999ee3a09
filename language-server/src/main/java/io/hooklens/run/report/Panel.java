package io.hooklens.run.report;

import java.util.ArrayList;
import java.util.List;

/**
 * One timeline chart of a step, as both the terminal and the SVG draw it: the start (0 = pod created, each run of
 * a container a line from its process's start, postStart bars, Running, Ready, probe failure and exit marks) or
 * the termination (0 =
 * deletion, preStop bars, the grace period, SIGTERM, SIGKILL and exit marks).
 *
 * @param graceMs where the grace period ends, on the termination panel; null on the start panel
 */
record Panel(String title, long lastMs, Long graceMs, List<Row> rows) {
  /** How a bar ended. */
  enum Style { OK, FAILED, OPEN }

  /** A hook from {@code fromMs} to {@code toMs} (open: to the panel's end). */
  record Bar(long fromMs, long toMs, Style style) {}

  /**
   * A point event.
   *
   * @param symbol the one-character mark in the terminal: {@code R} Running, {@code Y} Ready, {@code N} not Ready,
   *     {@code !} a probe failed, {@code T} SIGTERM, {@code K} SIGKILL, {@code x} exit, {@code d} deleted by a
   *     delete policy, {@code *} a step recorded, not performed
   */
  record Mark(long atMs, char symbol, String name) {}

  /** A run of a container, from its process's start to its exit (or the panel's end). */
  record Span(long fromMs, long toMs) {}

  /** A row: a hook's bars (one per run it ran for), or a container's runs and marks. */
  record Row(String label, List<Bar> bars, List<Span> spans, List<Mark> marks, String note) {}

  /** The panels of a step: the start panel only when it has postStart hooks or probes that decided something. */
  static List<Panel> of(Step step) {
    List<Panel> panels = new ArrayList<>();
    if (step.hooks().stream().anyMatch(h -> "postStart".equals(h.hook()))
        || step.containers().stream().anyMatch(c -> !c.probes().isEmpty())) {
      panels.add(start(step));
    }
    if (step.deleteMs() != null) {
      panels.add(termination(step));
    }
    return panels;
  }

  /** The one panel of a sequence: each hook a bar from its creation to its end, in the order they ran. */
  static Panel of(Sequence sequence) {
    List<Row> rows = new ArrayList<>();
    boolean helm = "helm".equals(sequence.kind());
    long last = sequence.endMs();
    for (Sequence.Item item : sequence.items()) {
      // A rollout's hooks are named by their path, which holds the phase already.
      String label = !item.hook() ? item.group() : helm ? item.group() + " " + item.what() : item.what();
      List<Mark> marks = new ArrayList<>();
      if (item.deletedMs() != null) {
        marks.add(new Mark(item.deletedMs(), 'd', "deleted by " + item.deletedBy()));
        last = Math.max(last, item.deletedMs());
      }
      if ("recorded".equals(item.outcome())) {
        marks.add(new Mark(item.startMs(), '*', item.what()));
        rows.add(new Row(label, List.of(), List.of(), marks, item.what()));
        continue;
      }
      Style style = List.of("succeeded", "recorded").contains(item.outcome()) ? Style.OK : Style.FAILED;
      String note = (item.replacedExisting() ? "replaced the old one; " : "") + item.outcome().replace('-', ' ')
          + " in " + Verdicts.seconds(item.durationMs()) + (item.deletedBy() == null ? "" : ", " + item.deletedBy());
      rows.add(new Row(label, List.of(new Bar(item.startMs(), item.endMs(), style)), List.of(), marks, note));
    }
    return new Panel(helm ? "helm " + sequence.name() + " (0 = start)"
        : "rollout of " + sequence.name() + " (0 = start)", Math.max(1, last), null, rows);
  }

  private static Panel start(Step step) {
    List<Row> rows = new ArrayList<>();
    long last = Scale.lastBeforeDelete(step);
    long end = step.deleteMs() == null ? Long.MAX_VALUE : step.deleteMs();
    for (ContainerResult c : step.containers()) {
      List<HookResult> posts = step.hooks().stream().filter(h -> h.container().equals(c.name())
          && "postStart".equals(h.hook()) && h.startMs() != null).toList();
      if (!posts.isEmpty()) {
        rows.add(new Row(c.name() + " postStart", posts.stream().map(h -> bar(h, 0, last)).toList(), List.of(),
            List.of(), status(posts.get(posts.size() - 1)) + (posts.size() > 1 ? " (run " + posts.size() + ")" : "")));
      }
      List<Span> spans = new ArrayList<>();
      List<Mark> marks = new ArrayList<>();
      for (ContainerResult.Attempt a : c.attempts()) {
        boolean exited = a.exitedMs() != null && a.exitedMs() < end;
        if (a.startedMs() != null) {
          spans.add(new Span(a.startedMs(), exited ? a.exitedMs() : last));
        }
        if (a.runningMs() != null) {
          marks.add(new Mark(a.runningMs(), 'R', "Running"));
        }
        if (exited) {
          marks.add(new Mark(a.exitedMs(), 'x', "exit " + a.exitCode()));
        }
      }
      // Failures first, so that Ready at the same moment is drawn over them.
      for (ContainerResult.ProbeMark p : c.probes()) {
        if (p.atMs() < end && !isReadiness(p)) {
          marks.add(new Mark(p.atMs(), '!', p.message()));
        }
      }
      for (ContainerResult.ProbeMark p : c.probes()) {
        if (p.atMs() < end && isReadiness(p)) {
          boolean ready = ContainerResult.ProbeMark.READY.equals(p.kind());
          marks.add(new Mark(p.atMs(), ready ? 'Y' : 'N', ready ? "Ready" : "not Ready"));
        }
      }
      rows.add(new Row(c.name(), List.of(), spans, marks, startNote(c, end)));
    }
    return new Panel("Start (0 = pod created)", last, null, rows);
  }

  private static boolean isReadiness(ContainerResult.ProbeMark p) {
    return ContainerResult.ProbeMark.READY.equals(p.kind()) || ContainerResult.ProbeMark.NOT_READY.equals(p.kind());
  }

  private static String startNote(ContainerResult c, long end) {
    String probes = probeNote(c, end);
    String note = runNote(c, end);
    return probes.isEmpty() ? note : note + ", " + probes;
  }

  /** When probes made the container Ready, and how often they failed before the deletion. */
  private static String probeNote(ContainerResult c, long end) {
    long failed = c.probes().stream().filter(p -> p.atMs() < end
        && ContainerResult.ProbeMark.UNHEALTHY.equals(p.kind())).count();
    boolean killed = c.probes().stream().anyMatch(p -> p.atMs() < end
        && ContainerResult.ProbeMark.KILLING.equals(p.kind()));
    List<String> parts = new ArrayList<>();
    if (c.readyMs() != null && c.readyMs() < end) {
      parts.add("Ready at " + Verdicts.seconds(c.readyMs()));
    } else if (!c.probes().isEmpty()) {
      parts.add("not Ready");
    }
    if (failed > 0) {
      parts.add(failed + (failed == 1 ? " probe failure" : " probe failures") + (killed ? ", killed by them" : ""));
    }
    return String.join(", ", parts);
  }

  private static String runNote(ContainerResult c, long end) {
    String runs = c.attempts().size() > 1 ? c.attempts().size() + " runs; " : "";
    ContainerResult.Attempt a = c.attempts().isEmpty() ? null : c.attempts().get(c.attempts().size() - 1);
    if (a == null) {
      return c.reason() == null ? "not started" : "not started: " + c.reason();
    }
    if (a.exitedMs() != null && a.exitedMs() < end) {
      return runs + "exit " + a.exitCode() + " at " + Verdicts.seconds(a.exitedMs());
    }
    return runs + (a.runningMs() != null ? "Running at " + Verdicts.seconds(a.runningMs()) : "not Running");
  }

  private static Panel termination(Step step) {
    long delete = Scale.stopStart(step);
    long last = Scale.lastAfterStop(step);
    List<Row> rows = new ArrayList<>();
    for (ContainerResult c : step.containers()) {
      for (HookResult h : step.hooks()) {
        if (h.container().equals(c.name()) && "preStop".equals(h.hook()) && h.startMs() != null) {
          rows.add(new Row(c.name() + " preStop", List.of(bar(h, delete, last)), List.of(), List.of(), status(h)));
        }
      }
      List<Mark> marks = new ArrayList<>();
      List<String> notes = new ArrayList<>();
      // The exit goes first, so that a signal at the same moment is drawn over it.
      if (c.exitedMs() != null && c.exitedMs() >= delete) {
        marks.add(new Mark(c.exitedMs() - delete, 'x', "exit " + c.exitCode()));
      }
      for (Signal s : step.signals()) {
        if (s.container().equals(c.name())) {
          char symbol = "SIGKILL".equals(s.signal()) ? 'K' : 'T';
          marks.add(new Mark(s.atMs() - delete, symbol, s.signal()));
          notes.add(s.signal() + " " + Verdicts.seconds(s.atMs() - delete));
        }
      }
      if (c.exitedMs() != null && c.exitedMs() >= delete) {
        notes.add("exit " + c.exitCode() + " at " + Verdicts.seconds(c.exitedMs() - delete));
      } else if (c.exitedMs() != null) {
        notes.add("had ended before (exit " + c.exitCode() + ")");
      }
      rows.add(new Row(c.name(), List.of(), stopSpans(c, delete, last), marks, String.join(", ", notes)));
    }
    String zero = delete == step.deleteMs() ? "deletion"
        : "the first stop, " + Verdicts.seconds(step.deleteMs() - delete) + " before deletion";
    return new Panel("Termination (0 = " + zero + ", grace period " + step.graceSeconds() + " s)", last,
        step.graceSeconds() * 1000, rows);
  }

  /** The runs a container had after its stop began, relative to it; a run before it shows from 0. */
  private static List<Span> stopSpans(ContainerResult c, long delete, long last) {
    List<Span> spans = new ArrayList<>();
    for (ContainerResult.Attempt a : c.attempts()) {
      // Seen through the API, a run's start is not known: it ran before the stop.
      boolean ran = a.startedMs() != null || a.runningMs() != null;
      if (ran && (a.exitedMs() == null || a.exitedMs() >= delete)) {
        long from = a.startedMs() == null ? 0 : Math.max(0, a.startedMs() - delete);
        spans.add(new Span(from, a.exitedMs() == null ? last : a.exitedMs() - delete));
      }
    }
    return spans;
  }

  private static Bar bar(HookResult h, long zero, long last) {
    long from = h.startMs() - zero;
    if (h.endMs() == null) {
      return new Bar(from, last, Style.OPEN);
    }
    Style style = "succeeded".equals(h.status()) ? Style.OK : Style.FAILED;
    return new Bar(from, h.endMs() - zero, style);
  }

  private static String status(HookResult h) {
    Long took = h.durationMs();
    return switch (h.status()) {
      case "cut-off" -> "cut off after " + Verdicts.seconds(took);
      case "running" -> "still running";
      case "unknown" -> "end not visible";
      default -> h.status() + (took == null ? "" : " in " + Verdicts.seconds(took));
    };
  }
}
