package io.hooklens.run.report;

import io.hooklens.core.text.TerminalColumns;
import io.hooklens.core.text.Printable;
import io.hooklens.core.text.Xml;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The timelines of a report as one standalone SVG: per step its panels, each hook a bar, each run of a container
 * a line, the grace period a dashed line, SIGTERM, SIGKILL, Running and exit as marks, then the verdicts and the
 * end of each output, and a legend for the marks. It is as wide as its labels and notes need (within bounds that
 * keep it legible when an editor panel scales it down), and long headings, notes and verdicts wrap. Text and axes
 * use {@code currentColor}, dark on a light background and light where the viewer prefers a dark scheme; the bar
 * and mark colours are mid-tones that read on both.
 */
public final class SvgTimeline {
  /** The advance of one character of the 13 px monospace font, rounded up, to size text before it is drawn. */
  static final int CHAR = 8;
  static final int ROW = 24;
  static final int MIN_WIDTH = 560;
  private static final int MIN_CHART = 200;
  private static final int MIN_NOTE = 140;
  // Longer notes wrap, so that one long note does not make every chart small when a panel scales the image down.
  private static final int MAX_NOTE = 240;
  static final int MARGIN = 10;
  static final String OK = "#2e9d4f";
  static final String FAILED = "#d64545";
  static final String TERM = "#d89b00";

  private final StringBuilder body = new StringBuilder();
  private final int width;
  private int y = 10;

  private SvgTimeline(int width) {
    this.width = width;
  }

  public static String render(RunReport report) {
    List<Panel> panels = new ArrayList<>();
    report.steps().forEach(s -> panels.addAll(Panel.of(s)));
    report.sequences().forEach(s -> panels.add(Panel.of(s)));
    int width = MIN_WIDTH;
    for (Panel panel : panels) {
      width = Math.max(width, left(panel) + MIN_CHART + 12 + noteWidth(panel) + MARGIN);
    }
    SvgTimeline svg = new SvgTimeline(width);
    for (Step step : report.steps()) {
      svg.step(step);
    }
    for (Sequence sequence : report.sequences()) {
      svg.sequence(sequence);
    }
    svg.y = SvgLegend.draw(svg.body, panels, svg.y + 8, width);
    int height = svg.y + MARGIN;
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        + "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + width + "\" height=\"" + height
        + "\" viewBox=\"0 0 " + width + " " + height + "\" font-family=\"ui-monospace, Menlo, Consolas, "
        + "'DejaVu Sans Mono', monospace\" font-size=\"13\">\n"
        + "<title>hooklens run: " + escape(report.source()) + "</title>\n"
        + "<style>svg { color: #1f2328; } @media (prefers-color-scheme: dark) { svg { color: #e6edf3; } }</style>\n"
        + svg.body + "</svg>\n";
  }

  /** Where a panel's chart begins: after its longest label. */
  private static int left(Panel panel) {
    return 2 * MARGIN + CHAR * panel.rows().stream().mapToInt(r -> TerminalColumns.of(Printable.line(r.label()))).max().orElse(0);
  }

  /** The note column's width: the longest note's, within bounds. */
  private static int noteWidth(Panel panel) {
    int longest = CHAR * panel.rows().stream().mapToInt(r -> TerminalColumns.of(Printable.line(r.note()))).max().orElse(0);
    return Math.max(MIN_NOTE, Math.min(MAX_NOTE, longest));
  }

  private void step(Step step) {
    heading(step.resource() + " → pod " + step.pod() + " (grace period " + step.graceSeconds() + " s)", "");
    for (Panel panel : Panel.of(step)) {
      panel(panel);
    }
    verdicts(step.verdicts());
    y = SvgOutput.draw(body, step, y, width) + 8;
  }

  private void sequence(Sequence sequence) {
    heading(("helm".equals(sequence.kind()) ? "helm " : "rollout of ") + sequence.name(), "");
    if (!sequence.succeeded()) {
      heading(sequence.outcome(), "fill=\"" + FAILED + "\"");
    }
    panel(Panel.of(sequence));
    verdicts(sequence.verdicts());
    y = SvgOutput.draw(body, sequence, y, width) + 8;
  }

  private void heading(String text, String fill) {
    y += 8;
    for (String line : wrap(Printable.line(text), (width - 2 * MARGIN) / CHAR, "")) {
      y += 18;
      draw(MARGIN, y, line, "font-weight=\"bold\"" + (fill.isEmpty() ? "" : " " + fill));
    }
  }

  private void verdicts(List<Verdict> verdicts) {
    for (Verdict v : verdicts) {
      String text = (v.ok() ? "✓ " : "✗ ") + Printable.line(v.container()) + ": " + Printable.line(v.text());
      for (String line : wrap(text, (width - 2 * MARGIN) / CHAR, "    ")) {
        y += 18;
        draw(MARGIN, y, line, "fill=\"" + (v.ok() ? OK : FAILED) + "\"");
      }
    }
    y += 14;
  }

  private void panel(Panel panel) {
    int left = left(panel);
    int chart = width - left - 12 - noteWidth(panel) - MARGIN;
    Scale scale = Scale.of(panel.lastMs(), chart / 50);
    y += 4;
    for (String line : wrap(Printable.line(panel.title()), (width - 2 * MARGIN) / CHAR, "")) {
      y += 18;
      draw(MARGIN, y, line, "font-weight=\"bold\"");
    }
    y += 20;
    SvgPanel drawn = new SvgPanel(body, width, left, chart, scale);
    y = drawn.draw(panel, y);
  }

  /**
   * The lines a text is broken into at spaces to fit {@code chars} columns (a wide character takes two), a word
   * longer than that cut; every line after the first starts with {@code indent}.
   */
  static List<String> wrap(String text, int chars, String indent) {
    List<String> lines = new ArrayList<>();
    String rest = text;
    String prefix = "";
    while (TerminalColumns.of(prefix) + TerminalColumns.of(rest) > chars) {
      int room = TerminalColumns.fit(rest, chars - TerminalColumns.of(prefix));
      int cut = rest.lastIndexOf(' ', room);
      if (cut <= 0) {
        cut = Math.max(room, Character.charCount(rest.codePointAt(0)));
      }
      lines.add(prefix + rest.substring(0, cut).stripTrailing());
      rest = rest.substring(cut).stripLeading();
      prefix = indent;
    }
    lines.add(prefix + rest);
    return lines;
  }

  private void draw(double x, int atY, String text, String attributes) {
    body.append(text(x, atY, text, attributes));
  }

  /**
   * A text from the manifest or the run, shown {@link Printable}; {@code attributes} may set {@code fill}, else it
   * is {@code currentColor}.
   */
  static String text(double x, int atY, String text, String attributes) {
    String fill = attributes.contains("fill=") ? "" : " fill=\"currentColor\"";
    return String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\"%s%s>%s</text>%n", x, atY, fill,
        attributes.isEmpty() ? "" : " " + attributes, escape(text));
  }

  /** Text from the manifest or the run, shown {@link Printable}, as XML. */
  static String escape(String text) {
    return Xml.escape(Printable.line(text));
  }
}
