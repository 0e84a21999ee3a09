package io.hooklens.run.report;

import io.hooklens.core.text.TerminalColumns;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** The legend under an SVG timeline: each kind of bar, line and mark its panels use, with what it means. */
final class SvgLegend {
  private static final int SYMBOL = 16;
  private static final int GAP = 18;

  private SvgLegend() {}

  /** Draws the legend's items in rows that fit the width, from {@code top}; returns the y below it. */
  static int draw(StringBuilder body, Iterable<Panel> panels, int top, int width) {
    Map<String, String> items = items(panels);
    if (items.isEmpty()) {
      return top;
    }
    int x = SvgTimeline.MARGIN;
    int y = top + 16;
    for (Map.Entry<String, String> item : items.entrySet()) {
      int size = SYMBOL + 6 + SvgTimeline.CHAR * TerminalColumns.of(item.getValue());
      if (x > SvgTimeline.MARGIN && x + size > width - SvgTimeline.MARGIN) {
        x = SvgTimeline.MARGIN;
        y += 20;
      }
      symbol(body, item.getKey(), x, y - 4);
      body.append(SvgTimeline.text(x + SYMBOL + 6, y, item.getValue(), "fill-opacity=\"0.8\""));
      x += size + GAP;
    }
    return y + 6;
  }

  /** What the panels use, keyed by symbol: bars by style, {@code -} a run, {@code |} the grace period, marks. */
  private static Map<String, String> items(Iterable<Panel> panels) {
    Map<String, String> items = new LinkedHashMap<>();
    for (Panel panel : panels) {
      for (Panel.Row row : panel.rows()) {
        row.bars().forEach(b -> items.put(b.style().name(), switch (b.style()) {
          case OK -> "hook succeeded";
          case FAILED -> "hook failed or cut off";
          case OPEN -> "hook still running";
        }));
        if (!row.spans().isEmpty()) {
          items.put("-", "container running");
        }
        row.marks().forEach(m -> items.put(String.valueOf(m.symbol()), switch (m.symbol()) {
          case 'R' -> "Running";
          case 'Y' -> "Ready";
          case 'N' -> "not Ready";
          case '!' -> "probe failed";
          case 'T' -> "stop signal";
          case 'K' -> "SIGKILL";
          case 'x' -> "exit";
          case 'd' -> "deleted by its policy";
          default -> "recorded, not performed";
        }));
      }
      if (panel.graceMs() != null) {
        items.put("|", "grace period ends");
      }
    }
    return items;
  }

  private static void symbol(StringBuilder body, String key, int x, int cy) {
    switch (key) {
      case "OK", "FAILED", "OPEN" -> body.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" "
          + "height=\"10\" rx=\"2\" fill=\"%s\"%s/>%n", x, cy - 5, SYMBOL, "OK".equals(key) ? SvgTimeline.OK
          : SvgTimeline.FAILED, "OPEN".equals(key) ? " fill-opacity=\"0.4\"" : ""));
      case "-" -> body.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
          + "stroke=\"currentColor\" stroke-opacity=\"0.5\" stroke-width=\"2\"/>%n", x, cy, x + SYMBOL, cy));
      case "|" -> body.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
          + "stroke-width=\"2\" stroke-dasharray=\"5 3\"/>%n", x + SYMBOL / 2, cy - 7, x + SYMBOL / 2, cy + 7,
          SvgTimeline.TERM));
      default -> SvgPanel.mark(body, x + SYMBOL / 2.0, cy, key.charAt(0), key);
    }
  }
}
