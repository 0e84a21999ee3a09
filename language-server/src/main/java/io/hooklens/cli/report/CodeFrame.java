package io.hooklens.cli.report;

import io.hooklens.core.engine.Finding;
import io.hooklens.core.text.Printable;
import io.hooklens.core.text.TerminalColumns;
import io.hooklens.core.yaml.Position;
import io.hooklens.core.yaml.SourceText;
import java.util.ArrayList;
import java.util.List;

/**
 * The source lines around a finding as the text report shows them: {@link Printable}, tabs as one space, and
 * cut to {@link #WIDTH} terminal columns around the finding's column, with {@link #CUT} where text is left out.
 * A frame costs the same on a 10 MB line (a minified JSON file holds one) as on a short one.
 */
final class CodeFrame {
  /** Columns of source text shown per line, about a terminal's width. */
  static final int WIDTH = 120;
  /** Columns kept left of the finding when its line is cut. */
  private static final int BEFORE = 40;
  static final String CUT = "…";

  /**
   * One line of the frame.
   *
   * @param number the zero-based line number
   * @param text the line as shown, markers included
   * @param caretColumn on the finding's line, the column where its carets start; else -1
   * @param carets how many carets
   */
  record Line(int number, String text, int caretColumn, int carets) {}

  private CodeFrame() {}

  /** The finding's line with the lines just above and below it; empty when the line is not in the text. */
  static List<Line> of(SourceText source, Finding f) {
    Position start = f.range().start();
    int line = start.line();
    List<Line> lines = new ArrayList<>(3);
    if (source.text().isEmpty() || line < 0 || line >= source.lineCount()) {
      return lines;
    }
    String text = source.text();
    int lineStart = source.lineStart(line);
    int lineEnd = source.lineEnd(line);
    int from = Math.min(source.offset(start), lineEnd);
    int to = f.range().end().line() == line ? Math.min(source.offset(f.range().end()), lineEnd) : lineEnd;
    // The window starts at the line's start when the line fits, else some columns left of the finding; the lines
    // around start at the same column.
    int windowStart = lineStart;
    int windowColumn = 0;
    if (!fits(text, lineStart, lineEnd)) {
      windowStart = from;
      windowColumn = start.column();
      int width = 0;
      while (windowStart > lineStart) {
        int c = text.codePointBefore(windowStart);
        width += TerminalColumns.of(c);
        if (width > BEFORE) {
          break;
        }
        windowStart -= Character.charCount(c);
        windowColumn--;
      }
    }
    for (int l = Math.max(0, line - 1); l <= Math.min(line + 1, source.lineCount() - 1); l++) {
      int at = l == line ? windowStart
          : Math.min(source.offset(new Position(l, Math.max(0, windowColumn))), source.lineEnd(l));
      Window w = window(text, source.lineStart(l), at, source.lineEnd(l));
      if (l != line) {
        lines.add(new Line(l, w.shown, -1, 0));
        continue;
      }
      int caretTo = Math.max(from, Math.min(to, w.end));
      int caretColumn = (w.leftCut ? 1 : 0) + TerminalColumns.of(text, windowStart, Math.min(from, w.end));
      lines.add(new Line(l, w.shown, caretColumn, Math.max(1, TerminalColumns.of(text, from, caretTo))));
    }
    return lines;
  }

  private record Window(String shown, int end, boolean leftCut) {}

  /** The text shown from {@code at}, up to the columns left once the markers it needs are counted. */
  private static Window window(String text, int lineStart, int at, int lineEnd) {
    boolean leftCut = at > lineStart;
    int budget = WIDTH - (leftCut ? 1 : 0);
    int end = at;
    int width = 0;
    while (end < lineEnd) {
      int c = text.codePointAt(end);
      int w = TerminalColumns.of(c);
      boolean last = Character.charCount(c) + end >= lineEnd;
      // A marker takes the last column when more text follows.
      if (width + w > (last ? budget : budget - 1)) {
        break;
      }
      width += w;
      end += Character.charCount(c);
    }
    boolean rightCut = end < lineEnd;
    String shown = (leftCut ? CUT : "") + shown(text.substring(at, end)) + (rightCut ? CUT : "");
    return new Window(shown, end, leftCut);
  }

  /** Whether a whole line fits the width; looks at no more than the width's worth of it. */
  private static boolean fits(String text, int from, int to) {
    int width = 0;
    for (int i = from; i < to; ) {
      int c = text.codePointAt(i);
      width += TerminalColumns.of(c);
      if (width > WIDTH) {
        return false;
      }
      i += Character.charCount(c);
    }
    return true;
  }

  /** A source line as shown: tabs as one space, so that carets line up under it. */
  private static String shown(String text) {
    return Printable.line(text.replace('\t', ' '));
  }
}
