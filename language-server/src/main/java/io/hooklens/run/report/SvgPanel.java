package io.hooklens.run.report;

import io.hooklens.core.text.Printable;
import java.util.List;
import java.util.Locale;

/** One timeline panel drawn into an SVG: its axis, its rows' runs, bars and marks, the grace period and notes. */
final class SvgPanel {
  private static final int NOTE_LINE = 16;
  private final StringBuilder body;
  private final int width;
  private final int left;
  private final int chart;
  private final Scale scale;

  /**
   * @param width the canvas's width
   * @param left where the chart begins (the labels are before it)
   * @param chart the chart's width; the notes come after it, wrapped to the canvas
   */
  SvgPanel(StringBuilder body, int width, int left, int chart, Scale scale) {
    this.body = body;
    this.width = width;
    this.left = left;
    this.chart = chart;
    this.scale = scale;
  }

  private double x(long ms) {
    return left + scale.at(ms, chart);
  }

  /** Draws the panel with its axis labels at {@code top}; returns where the next content may start. */
  int draw(Panel panel, int top) {
    int noteChars = Math.max(1, (width - left - chart - 12 - SvgTimeline.MARGIN) / SvgTimeline.CHAR);
    List<List<String>> notes = panel.rows().stream()
        .map(r -> SvgTimeline.wrap(Printable.line(r.note()), noteChars, "  ")).toList();
    int bottom = top + 6;
    for (List<String> note : notes) {
      bottom += height(note);
    }
    for (long tick : scale.ticks()) {
      double x = x(tick * 1000);
      body.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"currentColor\" "
          + "stroke-opacity=\"0.15\"/>%n", x, top + 4, x, bottom));
      body.append(SvgTimeline.text(x, top, tick + "s", "text-anchor=\"middle\" fill-opacity=\"0.7\""));
    }
    if (panel.graceMs() != null) {
      double x = x(panel.graceMs());
      body.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
          + "stroke-width=\"2\" stroke-dasharray=\"5 3\"/>%n", x, top + 4, x, bottom + 4, SvgTimeline.TERM));
      // Anchored to the side with room, so that it stays on the canvas next to either end of the chart.
      String anchor = x - left > chart / 2.0 ? "end" : "start";
      body.append(SvgTimeline.text(x, bottom + 18, "grace period ends", "text-anchor=\"" + anchor + "\" fill=\""
          + SvgTimeline.TERM + "\""));
    }
    int rowY = top + 6;
    for (int i = 0; i < panel.rows().size(); i++) {
      row(panel.rows().get(i), notes.get(i), rowY);
      rowY += height(notes.get(i));
    }
    return bottom + (panel.graceMs() == null ? 6 : 24);
  }

  /** A row's height: one row, or more for a note that wraps. */
  private static int height(List<String> note) {
    return SvgTimeline.ROW + NOTE_LINE * (note.size() - 1);
  }

  private void row(Panel.Row row, List<String> note, int rowY) {
    body.append(SvgTimeline.text(SvgTimeline.MARGIN, rowY + 16, row.label(), ""));
    for (Panel.Span span : row.spans()) {
      body.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
          + "stroke=\"currentColor\" stroke-opacity=\"0.5\" stroke-width=\"2\"/>%n", x(span.fromMs()), rowY + 12,
          Math.max(x(span.fromMs()) + 1, x(span.toMs())), rowY + 12));
    }
    for (Panel.Bar bar : row.bars()) {
      double x1 = x(bar.fromMs());
      double x2 = Math.max(x1 + 2, x(bar.toMs()));
      String fill = bar.style() == Panel.Style.OK ? SvgTimeline.OK : SvgTimeline.FAILED;
      String opacity = bar.style() == Panel.Style.OPEN ? " fill-opacity=\"0.4\"" : "";
      body.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"14\" rx=\"2\" "
          + "fill=\"%s\"%s/>%n", x1, rowY + 5, x2 - x1, fill, opacity));
    }
    for (Panel.Mark mark : row.marks()) {
      mark(body, x(mark.atMs()), rowY + 12, mark.symbol(), mark.name());
    }
    for (int i = 0; i < note.size(); i++) {
      body.append(SvgTimeline.text(left + chart + 12, rowY + 16 + NOTE_LINE * i, note.get(i), "fill-opacity=\"0.8\""));
    }
  }

  /** A mark's shape, centred at x and cy, with its name as a tooltip. */
  static void mark(StringBuilder body, double x, int cy, char symbol, String name) {
    String color = switch (symbol) {
      case 'K', '!' -> SvgTimeline.FAILED;
      case 'T', 'N' -> SvgTimeline.TERM;
      case 'R', 'Y' -> SvgTimeline.OK;
      default -> "currentColor";
    };
    if (symbol == 'K') {
      body.append(String.format(Locale.ROOT, "<path d=\"M%.1f %d l10 10 m0 -10 l-10 10\" stroke=\"%s\" "
          + "stroke-width=\"3\"><title>%s</title></path>%n", x - 5, cy - 5, color, SvgTimeline.escape(name)));
    } else if (symbol == 'd') {
      body.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"8\" height=\"8\" fill=\"%s\">"
          + "<title>%s</title></rect>%n", x - 4, cy - 4, color, SvgTimeline.escape(name)));
    } else if (symbol == 'Y' || symbol == 'N') {
      // Ready a filled circle, not Ready an open one.
      body.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%d\" r=\"5\" fill=\"%s\" stroke=\"%s\" "
          + "stroke-width=\"2\"><title>%s</title></circle>%n", x, cy, symbol == 'Y' ? color : "none", color,
          SvgTimeline.escape(name)));
    } else if (symbol == '!') {
      body.append(String.format(Locale.ROOT, "<path d=\"M%.1f %d v7 m0 3 v2\" stroke=\"%s\" stroke-width=\"3\">"
          + "<title>%s</title></path>%n", x, cy - 6, color, SvgTimeline.escape(name)));
    } else if (symbol == 'x') {
      body.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%d\" r=\"4\" fill=\"none\" stroke=\"%s\" "
          + "stroke-width=\"2\"><title>%s</title></circle>%n", x, cy, color, SvgTimeline.escape(name)));
    } else {
      body.append(String.format(Locale.ROOT, "<path d=\"M%.1f %d l6 10 h-12 z\" fill=\"%s\"><title>%s</title></path>%n",
          x, cy - 6, color, SvgTimeline.escape(name)));
    }
  }
}
