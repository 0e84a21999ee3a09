package io.hooklens.run.report;

import io.hooklens.core.text.TerminalColumns;
import java.util.Locale;

/**
 * The end of what a step's containers and hooks printed, under its verdicts in the SVG timeline, so that the editor's
 * panel shows why a container ended: a few last lines each, cut to the canvas's width.
 */
final class SvgOutput {
  static final int LINES = 5;
  static final int BYTES = 1024;
  private static final int LINE = 16;
  private static final int INDENT = 16;

  private SvgOutput() {}

  /** Draws the outputs from {@code y}; returns the y below them. */
  static int draw(StringBuilder body, Step step, int y, int width) {
    int chars = (width - 2 * SvgTimeline.MARGIN - INDENT) / SvgTimeline.CHAR;
    for (ContainerResult c : step.containers()) {
      if (c.attempts().size() > 1 && c.attempts().stream().anyMatch(a -> !a.output().isBlank())) {
        for (ContainerResult.Attempt a : c.attempts()) {
          y = output(body, "output of " + c.name() + ", run " + (a.restartCount() + 1), a.output(),
              a.outputDroppedBytes(), y, chars);
        }
      } else {
        y = output(body, "output of " + c.name(), c.output(), c.outputDroppedBytes(), y, chars);
      }
    }
    for (HookResult h : step.hooks()) {
      String run = h.attempt() == 0 ? "" : " (run " + (h.attempt() + 1) + ")";
      y = output(body, "output of " + h.container() + " " + h.hook() + run, h.output(), h.outputDroppedBytes(), y,
          chars);
    }
    return y;
  }

  /** Draws what the pods of a sequence's hooks printed, from {@code y}; returns the y below them. */
  static int draw(StringBuilder body, Sequence sequence, int y, int width) {
    int chars = (width - 2 * SvgTimeline.MARGIN - INDENT) / SvgTimeline.CHAR;
    for (Sequence.Item item : sequence.items()) {
      for (Sequence.PodOutput pod : item.pods()) {
        for (Sequence.ContainerOutput c : pod.containers()) {
          String title = "output of " + item.what() + ", pod " + pod.name() + ", " + c.name();
          if (c.eachRunKnown()) {
            for (Sequence.RunOutput run : c.runs()) {
              y = output(body, title + ", run " + (run.restartCount() + 1) + " (exit " + run.exitCode() + ")",
                  run.output(), run.outputDroppedBytes(), y, chars);
            }
          } else {
            String runs = c.restarts() > 0 ? " (its " + (c.restarts() + 1) + " runs)" : "";
            y = output(body, title + runs, c.output(), c.outputDroppedBytes(), y, chars);
          }
        }
      }
    }
    return y;
  }

  private static int output(StringBuilder body, String title, String output, long dropped, int y, int chars) {
    if (output == null || output.isBlank()) {
      return y;
    }
    OutputTail tail = OutputTail.of(output, dropped, LINES, BYTES);
    y += LINE + 2;
    body.append(SvgTimeline.text(SvgTimeline.MARGIN, y, cut(title, chars + INDENT / SvgTimeline.CHAR), ""));
    if (tail.notShownBytes() > 0) {
      y += LINE;
      body.append(SvgTimeline.text(SvgTimeline.MARGIN + INDENT, y, String.format(Locale.ROOT,
          "… %,d earlier bytes not shown", tail.notShownBytes()), "fill-opacity=\"0.6\""));
    }
    for (String line : tail.lines()) {
      y += LINE;
      body.append(SvgTimeline.text(SvgTimeline.MARGIN + INDENT, y, cut(line, chars), "fill-opacity=\"0.8\""));
    }
    return y + 4;
  }

  /** A line cut to {@code chars} columns, ending in an ellipsis when cut. */
  private static String cut(String line, int chars) {
    if (TerminalColumns.of(line) <= chars) {
      return line;
    }
    return line.substring(0, TerminalColumns.fit(line, chars - 1)) + "…";
  }
}
