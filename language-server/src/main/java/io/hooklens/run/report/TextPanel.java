package io.hooklens.run.report;

import io.hooklens.core.text.TerminalColumns;
import io.hooklens.core.text.Printable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One timeline panel drawn in a terminal's cells: each run of a container a line ({@code ─}), each hook a bar
 * ({@code █}, {@code ░} while open), the grace period a {@code │}, and the marks' letters over them.
 */
final class TextPanel {
  private static final int MIN_BAR = 20;
  private static final int NOTE_WIDTH = 34;
  private static final int TICK_GAP = 6;
  static final String RESET = "\u001b[0m";
  static final String GREEN = "\u001b[32m";
  static final String RED = "\u001b[31m";
  static final String YELLOW = "\u001b[33m";
  static final String DIM = "\u001b[2m";

  private final boolean color;
  private final List<String> lines = new ArrayList<>();

  private TextPanel(boolean color) {
    this.color = color;
  }

  /** The panel's lines, at most {@code width} columns before its notes. */
  static List<String> render(Panel panel, int width, boolean color) {
    TextPanel p = new TextPanel(color);
    p.draw(panel, width);
    return p.lines;
  }

  private void draw(Panel panel, int width) {
    List<Panel.Row> rows = panel.rows().stream().map(r -> new Panel.Row(shown(r.label()), r.bars(), r.spans(),
        r.marks(), shown(r.note()))).toList();
    int label = 3 + rows.stream().mapToInt(r -> TerminalColumns.of(r.label())).max().orElse(0);
    int bar = Math.max(MIN_BAR, width - label - 2 - NOTE_WIDTH);
    Scale scale = Scale.of(panel.lastMs(), bar / TICK_GAP);
    int grace = panel.graceMs() == null ? -1 : column(scale, panel.graceMs(), bar);
    lines.add(shown(panel.title()));
    lines.add(pad("", label) + axis(scale, bar));
    for (Panel.Row row : rows) {
      lines.add(pad("  " + row.label(), label) + cells(row, scale, bar, grace) + "  " + row.note());
    }
    if (grace >= 0) {
      lines.add(pad("", label) + " ".repeat(Math.min(grace, bar - 1)) + paint(YELLOW, "╵") + " grace period ends ("
          + "T stop signal, K SIGKILL, x exit)");
    } else if (panel.rows().stream().anyMatch(r -> r.marks().stream().anyMatch(m -> "YN!".indexOf(m.symbol()) >= 0))) {
      // Probe marks are new to most readers: the start chart names its marks when it has them.
      List<String> names = new ArrayList<>();
      for (String item : List.of("R Running", "Y Ready", "N not Ready", "! probe failed", "x exit")) {
        if (panel.rows().stream().anyMatch(r -> r.marks().stream().anyMatch(m -> m.symbol() == item.charAt(0)))) {
          names.add(item);
        }
      }
      lines.add(pad("", label) + "(" + String.join(", ", names) + ")");
    }
    lines.add("");
  }

  private String cells(Panel.Row row, Scale scale, int bar, int grace) {
    char[] cells = new char[bar];
    Arrays.fill(cells, ' ');
    String[] paint = new String[bar];
    for (Panel.Span span : row.spans()) {
      int from = column(scale, span.fromMs(), bar);
      for (int i = from; i <= column(scale, span.toMs(), bar) && i < bar; i++) {
        cells[i] = '─';
        paint[i] = DIM;
      }
    }
    for (Panel.Bar b : row.bars()) {
      int from = column(scale, b.fromMs(), bar);
      int to = Math.max(from, column(scale, b.toMs(), bar));
      for (int i = from; i <= to && i < bar; i++) {
        cells[i] = b.style() == Panel.Style.OPEN ? '░' : '█';
        paint[i] = b.style() == Panel.Style.OK ? GREEN : RED;
      }
    }
    if (grace >= 0 && grace < bar && cells[grace] != '█') {
      cells[grace] = '│';
      paint[grace] = YELLOW;
    }
    for (Panel.Mark mark : row.marks()) {
      int at = Math.min(bar - 1, column(scale, mark.atMs(), bar));
      cells[at] = mark.symbol();
      paint[at] = switch (mark.symbol()) {
        case 'K', '!' -> RED;
        case 'T', 'N' -> YELLOW;
        case 'R', 'Y' -> GREEN;
        default -> null;
      };
    }
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < bar; i++) {
      text.append(paint[i] == null ? String.valueOf(cells[i]) : paint(paint[i], String.valueOf(cells[i])));
    }
    return text.toString();
  }

  private static int column(Scale scale, long ms, int bar) {
    return (int) Math.round(scale.at(ms, bar - 1));
  }

  private static String axis(Scale scale, int bar) {
    char[] axis = new char[bar + 8];
    Arrays.fill(axis, ' ');
    int free = 0;
    for (long tick : scale.ticks()) {
      int at = column(scale, tick * 1000, bar);
      String label = tick + "s";
      if (at >= free && at + label.length() <= axis.length) {
        label.getChars(0, label.length(), axis, at);
        free = at + label.length() + 1;
      }
    }
    return new String(axis).stripTrailing();
  }

  private static String shown(Object value) {
    return Printable.line(String.valueOf(value));
  }

  private String paint(String code, String text) {
    return color ? code + text + RESET : text;
  }

  static String pad(String text, int width) {
    int columns = TerminalColumns.of(text);
    return columns >= width ? text : text + " ".repeat(width - columns);
  }
}
