package io.hooklens.run.report;

import io.hooklens.core.text.Printable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The report for a terminal: per step a timeline (each hook a bar against the grace period, with SIGTERM
 * and SIGKILL marks) sized to the terminal's width, the events, each hook's handler, status and output,
 * and the verdicts with what static analysis predicted. Colour only when asked (on a terminal). What comes
 * from the manifest or the run is shown {@link Printable}, and of each output only its end.
 */
public final class TextReport {
  /** How much of an output is shown: its last lines, and of those at most the last bytes. */
  public static final int OUTPUT_LINES = 20;
  public static final int OUTPUT_BYTES = 4096;
  private static final String RESET = TextPanel.RESET;
  private static final String GREEN = TextPanel.GREEN;
  private static final String RED = TextPanel.RED;
  private static final String YELLOW = TextPanel.YELLOW;
  private static final String BOLD = "\u001b[1m";
  /** How many of a container's probe marks are listed: a failing probe adds one every period. */
  private static final int PROBES_SHOWN = 12;

  private final int width;
  private final boolean color;
  private final StringBuilder out = new StringBuilder();

  private TextReport(int width, boolean color) {
    this.width = width;
    this.color = color;
  }

  /**
   * @param width the terminal's columns
   * @param color whether to use ANSI colours
   */
  public static String render(RunReport report, int width, boolean color) {
    TextReport r = new TextReport(Math.max(60, width), color);
    r.report(report);
    return r.out.toString();
  }

  /** Only the timelines of a report, for a log. */
  public static String timelines(RunReport report, int width) {
    TextReport r = new TextReport(Math.max(60, width), false);
    for (Step step : report.steps()) {
      r.heading(step);
      for (Panel panel : Panel.of(step)) {
        r.panel(panel);
      }
    }
    for (Sequence sequence : report.sequences()) {
      r.panel(Panel.of(sequence));
    }
    return r.out.toString();
  }

  private void report(RunReport report) {
    line("cluster: " + shown(report.target()) + (report.clusterStartMs() == null ? ""
        : ", ready " + Verdicts.seconds(report.clusterStartMs()) + " after it was started"));
    line("");
    for (Step step : report.steps()) {
      heading(step);
      for (Panel panel : Panel.of(step)) {
        panel(panel);
      }
      events(step);
      containers(step);
      hooks(step);
      verdicts(step.verdicts());
      for (String note : step.notes()) {
        line("note: " + shown(note));
      }
      line("");
    }
    for (Sequence sequence : report.sequences()) {
      sequence(sequence);
    }
    for (String note : report.notes()) {
      line(paint(YELLOW, "warning: ") + shown(note));
    }
  }

  private void heading(Step step) {
    line(paint(BOLD, shown(step.resource())) + " → pod " + shown(step.pod()) + " (namespace "
        + shown(step.namespace()) + ", grace period " + step.graceSeconds() + " s"
        + ("api".equals(step.timing()) ? ", times seen through the API" : "") + ")");
    line("");
  }

  private void panel(Panel panel) {
    for (String l : TextPanel.render(panel, width, color)) {
      line(l);
    }
  }

  private void events(Step step) {
    line("Events");
    if (step.events().isEmpty()) {
      line("  (none)");
    }
    int reason = step.events().stream().mapToInt(e -> shown(e.reason()).length()).max().orElse(0);
    for (EventRecord e : step.events()) {
      String type = "Warning".equals(e.type()) ? paint(YELLOW, "Warning") : "Normal ";
      line("  " + type + "  " + pad(shown(e.reason()), reason) + "  "
          + (e.container() == null ? "" : shown(e.container()) + ": ") + shown(e.message()));
    }
    line("");
  }

  private void containers(Step step) {
    line("Containers");
    for (ContainerResult c : step.containers()) {
      line("  " + shown(c.name()) + ": " + shown(c.command()) + (c.restartCount() == 0 ? ""
          : " (restartCount " + c.restartCount() + ")"));
      if (c.attempts().isEmpty()) {
        line("    never started" + (c.reason() == null ? "" : ": " + shown(c.reason())));
      }
      boolean perRun = c.attempts().size() > 1 && c.attempts().stream().anyMatch(a -> !a.output().isBlank());
      for (ContainerResult.Attempt a : c.attempts()) {
        line("    " + (c.attempts().size() > 1 ? "run " + (a.restartCount() + 1) + ": " : "") + attempt(a));
        if (perRun && !a.output().isBlank()) {
          output(a.output(), a.outputDroppedBytes(), "      ");
        }
      }
      probes(c);
      if (!perRun && c.output() != null && !c.output().isBlank()) {
        line("    output:");
        output(c.output(), c.outputDroppedBytes(), "      ");
      }
    }
    line("");
  }

  /** What the container's probes decided, when: the first ones, then how many more there were. */
  private void probes(ContainerResult c) {
    if (c.probes().isEmpty()) {
      return;
    }
    line("    probes:");
    int kind = c.probes().stream().mapToInt(p -> p.kind().length()).max().orElse(0);
    for (int i = 0; i < c.probes().size(); i++) {
      if (i == PROBES_SHOWN && c.probes().size() > PROBES_SHOWN + 1) {
        line("      … " + (c.probes().size() - i) + " more");
        break;
      }
      ContainerResult.ProbeMark p = c.probes().get(i);
      String shownKind = p.message().isBlank() ? p.kind() : pad(p.kind(), kind);
      String what = paint(ContainerResult.ProbeMark.READY.equals(p.kind()) ? GREEN
          : ContainerResult.ProbeMark.NOT_READY.equals(p.kind()) ? YELLOW : RED, shownKind);
      line("      at " + pad(Verdicts.seconds(p.atMs()), 8) + " " + what + (p.message().isBlank() ? ""
          : "  " + shown(p.message().strip())));
    }
  }

  private static String attempt(ContainerResult.Attempt a) {
    List<String> parts = new ArrayList<>();
    if (a.startedMs() != null) {
      parts.add("started at " + Verdicts.seconds(a.startedMs()));
    }
    if (a.runningMs() != null) {
      parts.add("Running at " + Verdicts.seconds(a.runningMs()));
    }
    parts.add(a.exitedMs() == null ? "not exited" : "exit " + a.exitCode() + " (" + shown(a.reason()) + ") at "
        + Verdicts.seconds(a.exitedMs()));
    String joined = String.join(", ", parts);
    return a.backOffMs() == null ? joined : joined + "; the next run started " + Verdicts.seconds(a.backOffMs())
        + " later";
  }

  private void hooks(Step step) {
    line("Hooks");
    for (HookResult h : step.hooks()) {
      String took = h.durationMs() == null ? "" : " after " + Verdicts.seconds(h.durationMs());
      String status = switch (h.status()) {
        case "succeeded" -> paint(GREEN, "succeeded") + took;
        case "cut-off" -> paint(RED, "cut off") + took + " (grace period over)";
        case "failed" -> paint(RED, "failed") + took + ": " + shown(Verdicts.withoutOutput(h));
        case "running" -> paint(RED, "still running");
        case "unknown" -> "ran; its end is not visible through the API";
        default -> "not run";
      };
      line("  " + shown(h.container()) + " " + shown(h.hook()) + (h.attempt() == 0 ? "" : " (run " + (h.attempt() + 1)
          + ")") + ": " + shown(h.handler()));
      line("    " + status);
      if (h.output() != null && !h.output().isBlank()) {
        line("    output:");
        output(h.output(), h.outputDroppedBytes(), "      ");
      }
    }
    line("");
  }

  private void sequence(Sequence sequence) {
    String title = ("helm".equals(sequence.kind()) ? "helm " : "rollout of ") + shown(sequence.name());
    line(paint(BOLD, title) + " (namespace " + shown(sequence.namespace()) + ")");
    line("");
    panel(Panel.of(sequence));
    line("Steps");
    for (Sequence.Item item : sequence.items()) {
      item(item);
    }
    line("");
    verdicts(sequence.verdicts());
    line(paint(sequence.succeeded() ? GREEN : RED, shown(sequence.outcome())));
    for (String note : sequence.notes()) {
      line("note: " + shown(note));
    }
    line("");
  }

  private void item(Sequence.Item item) {
    if (!item.hook()) {
      line("  " + shown(item.group()) + ": " + shown(item.what()) + ("recorded".equals(item.outcome())
          ? " (recorded, not performed)" : item.message() == null || item.message().isEmpty() ? ""
          : ": " + paint(RED, shown(item.message()))));
      return;
    }
    StringBuilder head = new StringBuilder("  " + shown(item.group()) + ": " + shown(item.what()));
    if (item.weight() != null) {
      head.append(", weight ").append(item.weight());
    }
    if (!item.policies().isEmpty()) {
      head.append(item.weight() != null ? ", delete policies " : ", failurePolicy ")
          .append(shown(String.join(",", item.policies())));
    }
    line(head.toString());
    if (item.replacedExisting()) {
      line("    before-hook-creation deleted the " + shown(item.what()) + " an earlier run left, then created it anew");
    }
    boolean ok = "succeeded".equals(item.outcome());
    line("    " + paint(ok ? GREEN : RED, shown(item.outcome().replace('-', ' '))) + " after "
        + Verdicts.seconds(item.durationMs()) + (ok || item.message() == null || item.message().isEmpty() ? ""
        : ": " + shown(item.message())) + (item.deletedBy() == null ? "" : "; " + shown(item.deletedBy())
        + " deleted it at " + Verdicts.seconds(item.deletedMs())));
    for (String tag : item.tags()) {
      line("    would tag " + shown(tag));
    }
    for (Sequence.PodOutput pod : item.pods()) {
      line("    pod " + shown(pod.name()) + ": " + shown(pod.phase())
          + (pod.reason() == null ? "" : " (" + shown(pod.reason()) + ")"));
      for (Sequence.ContainerOutput c : pod.containers()) {
        line("      " + shown(c.name()) + ": " + (c.exitCode() != null ? "exit " + c.exitCode()
            : c.reason() != null ? "waiting" : "running")
            + (c.restarts() > 0 ? ", " + c.restarts() + " restarts" : "")
            + (c.message() == null || c.message().isEmpty() ? ""
            : " (" + shown(c.reason()) + ": " + shown(c.message()) + ")"));
        if (c.eachRunKnown()) {
          for (Sequence.RunOutput run : c.runs()) {
            line("        run " + (run.restartCount() + 1) + ": exit " + run.exitCode());
            if (!run.output().isBlank()) {
              output(run.output(), run.outputDroppedBytes(), "          ");
            }
          }
        } else if (c.output() != null && !c.output().isBlank()) {
          output(c.output(), c.outputDroppedBytes(), "        ");
        }
      }
    }
  }

  private void verdicts(List<Verdict> verdicts) {
    line("Verdicts");
    for (Verdict v : verdicts) {
      line("  " + (v.ok() ? paint(GREEN, "✓") : paint(RED, "✗")) + " " + shown(v.container()) + ": "
          + shown(v.text()));
      if (v.predicted().isEmpty()) {
        line("      static analysis: no finding on this hook");
      }
      for (Prediction p : v.predicted()) {
        String at = (p.file() == null ? "" : shown(p.file()) + ":") + p.line() + ":" + p.column();
        line("      static analysis: " + shown(p.rule()) + " " + shown(p.severity()) + " at " + at + ": "
            + shown(p.message()));
      }
    }
  }

  /**
   * The end of an output, after a line that says how much comes before it: its last {@link #OUTPUT_LINES}
   * lines, and of those its last {@link #OUTPUT_BYTES} bytes.
   */
  private void output(String output, long droppedBytes, String indent) {
    OutputTail tail = OutputTail.of(output, droppedBytes, OUTPUT_LINES, OUTPUT_BYTES);
    if (tail.notShownBytes() > 0) {
      line(indent + String.format(Locale.ROOT, "… %,d earlier bytes not shown", tail.notShownBytes()));
    }
    for (String l : tail.lines()) {
      line(indent + "| " + l);
    }
  }

  /** A value from the manifest or the run, on one line. */
  private static String shown(Object value) {
    return Printable.line(String.valueOf(value));
  }

  private String paint(String code, String text) {
    return color ? code + text + RESET : text;
  }

  private static String pad(String text, int width) {
    return text.length() >= width ? text : text + " ".repeat(width - text.length());
  }

  private void line(String text) {
    out.append(text).append('\n');
  }

  /** The verdicts alone, one line each, for a short message. */
  public static List<String> verdictLines(RunReport report) {
    return report.verdicts()
        .map(v -> (v.ok() ? "✓ " : "✗ ") + shown(v.container()) + ": " + shown(v.text())).toList();
  }
}
