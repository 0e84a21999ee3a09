package io.hooklens.run.report;

import io.hooklens.core.text.Printable;
import io.hooklens.core.text.Xml;
import java.util.List;
import java.util.Locale;

/**
 * The timelines of a report as one standalone SVG: per step its panels, each hook a bar, the grace period
 * a dashed line, SIGTERM, SIGKILL, Running and exit as labelled marks. Text and axes use
 * {@code currentColor}, dark on a light background and light where the viewer prefers a dark scheme; the
 * bar and mark colours are mid-tones that read on both.
 */
public final class SvgTimeline {
  private static final int WIDTH = 900;
  private static final int ROW = 24;
  private static final int CHAR = 8;
  private static final int NOTE = 230;
  private static final String OK = "#2e9d4f";
  private static final String FAILED = "#d64545";
  private static final String TERM = "#d89b00";
  private static final String RUNNING = "#2e9d4f";

  private final StringBuilder body = new StringBuilder();
  private int y = 10;

  private SvgTimeline() {}

  public static String render(RunReport report) {
    SvgTimeline svg = new SvgTimeline();
    for (Step step : report.steps()) {
      svg.step(step);
    }
    for (Sequence sequence : report.sequences()) {
      svg.sequence(sequence);
    }
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        + "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + WIDTH + "\" height=\"" + (svg.y + 10)
        + "\" viewBox=\"0 0 " + WIDTH + " " + (svg.y + 10) + "\" font-family=\"ui-monospace, Menlo, Consolas, "
        + "monospace\" font-size=\"13\">\n"
        + "<title>hooklens run: " + escape(report.source()) + "</title>\n"
        + "<style>svg { color: #1f2328; } @media (prefers-color-scheme: dark) { svg { color: #e6edf3; } }</style>\n"
        + svg.body + "</svg>\n";
  }

  private void step(Step step) {
    y += 18;
    text(10, y, step.resource() + " → pod " + step.pod() + " (grace period " + step.graceSeconds() + " s)",
        "font-weight=\"bold\"");
    y += 10;
    for (Panel panel : Panel.of(step)) {
      panel(panel);
    }
    verdicts(step.verdicts());
  }

  private void sequence(Sequence sequence) {
    y += 18;
    text(10, y, ("helm".equals(sequence.kind()) ? "helm " : "rollout of ") + sequence.name()
        + (sequence.error() == null ? "" : " — failed: " + sequence.error()), "font-weight=\"bold\"");
    y += 10;
    panel(Panel.of(sequence));
    verdicts(sequence.verdicts());
  }

  private void verdicts(List<Verdict> verdicts) {
    for (Verdict v : verdicts) {
      y += 18;
      text(10, y, (v.ok() ? "✓ " : "✗ ") + v.container() + ": " + v.text(),
          "fill=\"" + (v.ok() ? OK : FAILED) + "\"");
    }
    y += 14;
  }

  private void panel(Panel panel) {
    int left = 20 + CHAR * panel.rows().stream().mapToInt(r -> Printable.line(r.label()).length()).max().orElse(0);
    int chart = WIDTH - left - NOTE;
    Scale scale = Scale.of(panel.lastMs(), chart / 50);
    y += 22;
    text(10, y, panel.title(), "font-weight=\"bold\"");
    y += 18;
    int top = y;
    int bottom = y + 6 + ROW * panel.rows().size();
    for (long tick : scale.ticks()) {
      double x = left + scale.at(tick * 1000, chart);
      body.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"currentColor\" "
          + "stroke-opacity=\"0.15\"/>%n", x, top + 4, x, bottom));
      text(x, top, tick + "s", "text-anchor=\"middle\" fill-opacity=\"0.7\"");
    }
    if (panel.graceMs() != null) {
      double x = left + scale.at(panel.graceMs(), chart);
      body.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
          + "stroke-width=\"2\" stroke-dasharray=\"5 3\"/>%n", x, top + 4, x, bottom + 4, TERM));
      text(x, bottom + 18, "grace period ends", "text-anchor=\"middle\" fill=\"" + TERM + "\"");
    }
    int rowY = top + 6;
    for (Panel.Row row : panel.rows()) {
      text(10, rowY + 16, row.label(), "");
      if (row.bar() != null) {
        double x1 = left + scale.at(row.bar().fromMs(), chart);
        double x2 = Math.max(x1 + 2, left + scale.at(row.bar().toMs(), chart));
        String fill = row.bar().style() == Panel.Style.OK ? OK : FAILED;
        String opacity = row.bar().style() == Panel.Style.OPEN ? " fill-opacity=\"0.4\"" : "";
        body.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"14\" rx=\"2\" "
            + "fill=\"%s\"%s/>%n", x1, rowY + 5, x2 - x1, fill, opacity));
      } else if (!row.marks().isEmpty()) {
        double end = row.marks().stream().mapToDouble(m -> scale.at(m.atMs(), chart)).max().orElse(0);
        body.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"currentColor\" "
            + "stroke-opacity=\"0.5\"/>%n", left, rowY + 12, left + end, rowY + 12));
      }
      for (Panel.Mark mark : row.marks()) {
        mark(left + scale.at(mark.atMs(), chart), rowY + 12, mark);
      }
      text(left + chart + 12, rowY + 16, row.note(), "fill-opacity=\"0.8\"");
      rowY += ROW;
    }
    y = bottom + (panel.graceMs() == null ? 6 : 24);
  }

  private void mark(double x, int cy, Panel.Mark mark) {
    String color = switch (mark.symbol()) {
      case 'K' -> FAILED;
      case 'T' -> TERM;
      case 'R' -> RUNNING;
      default -> "currentColor";
    };
    if (mark.symbol() == 'K') {
      body.append(String.format(Locale.ROOT, "<path d=\"M%.1f %d l10 10 m0 -10 l-10 10\" stroke=\"%s\" "
          + "stroke-width=\"3\"/>%n", x - 5, cy - 5, color));
    } else if (mark.symbol() == 'x') {
      body.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%d\" r=\"4\" fill=\"none\" stroke=\"%s\" "
          + "stroke-width=\"2\"/>%n", x, cy, color));
    } else {
      body.append(String.format(Locale.ROOT, "<path d=\"M%.1f %d l6 10 h-12 z\" fill=\"%s\"/>%n", x, cy - 6, color));
    }
    body.append(String.format(Locale.ROOT, "<title>%s</title>%n", escape(mark.name())));
  }

  /** A text; {@code attributes} may set {@code fill}, else it is {@code currentColor}. */
  private void text(double x, int atY, String text, String attributes) {
    String fill = attributes.contains("fill=") ? "" : " fill=\"currentColor\"";
    body.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\"%s%s>%s</text>%n", x, atY, fill,
        attributes.isEmpty() ? "" : " " + attributes, escape(text)));
  }

  /** Text from the manifest or the run, shown {@link Printable}, as XML. */
  private static String escape(String text) {
    return Xml.escape(Printable.line(text));
  }
}
