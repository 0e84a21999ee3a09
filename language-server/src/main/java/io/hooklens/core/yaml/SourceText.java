package io.hooklens.core.yaml;

import java.util.Arrays;

/**
 * The decoded text of one file (byte-order mark removed) with a line table, so that positions can be
 * turned into line text and offsets without rescanning.
 */
public final class SourceText {
  private final String text;
  private final int[] lineStarts;

  public SourceText(String text) {
    this.text = text.startsWith("\uFEFF") ? text.substring(1) : text;
    this.lineStarts = computeLineStarts(this.text);
  }

  private static int[] computeLineStarts(String s) {
    int[] starts = new int[16];
    int n = 1;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\n' || (c == '\r' && (i + 1 >= s.length() || s.charAt(i + 1) != '\n'))) {
        if (n == starts.length) {
          starts = Arrays.copyOf(starts, n * 2);
        }
        starts[n++] = i + 1;
      }
    }
    return Arrays.copyOf(starts, n);
  }

  public String text() {
    return text;
  }

  public int lineCount() {
    return lineStarts.length;
  }

  /** The UTF-16 offset at which a line starts. */
  public int lineStart(int line) {
    return lineStarts[Math.max(0, Math.min(line, lineStarts.length - 1))];
  }

  /** A line's text without its line break. */
  public String line(int line) {
    if (line < 0 || line >= lineStarts.length) {
      return "";
    }
    int start = lineStarts[line];
    int end = line + 1 < lineStarts.length ? lineStarts[line + 1] : text.length();
    while (end > start && (text.charAt(end - 1) == '\n' || text.charAt(end - 1) == '\r')) {
      end--;
    }
    return text.substring(start, end);
  }

  /** The UTF-16 offset of a position whose column counts code points. */
  public int offset(Position p) {
    int start = lineStart(p.line());
    int lineEnd = p.line() + 1 < lineStarts.length ? lineStarts[p.line() + 1] : text.length();
    int off = start;
    for (int cp = 0; cp < p.column() && off < lineEnd; cp++) {
      off += Character.charCount(text.codePointAt(off));
    }
    return off;
  }

  /** The position of a UTF-16 offset, its column counting code points. */
  public Position positionAt(int offset) {
    int at = Math.max(0, Math.min(offset, text.length()));
    int line = Arrays.binarySearch(lineStarts, at);
    if (line < 0) {
      line = -line - 2;
    }
    return new Position(line, text.codePointCount(lineStarts[line], at));
  }

  /** The UTF-16 column of a position, as LSP counts characters. */
  public int utf16Column(Position p) {
    return offset(p) - lineStart(p.line());
  }

  /** The line break style of the file: CRLF when its first line break is CRLF. */
  public String lineBreak() {
    int nl = text.indexOf('\n');
    return nl > 0 && text.charAt(nl - 1) == '\r' ? "\r\n" : "\n";
  }
}
