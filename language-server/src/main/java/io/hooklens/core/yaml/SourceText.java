package io.hooklens.core.yaml;

import java.util.Arrays;

/**
 * The decoded text of one file (byte-order mark removed) with a line table, so that positions can be
 * turned into line text and offsets without rescanning.
 */
public final class SourceText {
  private static final int[] NONE = new int[0];

  private final String text;
  private final int[] lineStarts;
  /**
   * The UTF-16 offsets of the surrogate pairs, where a code point column and a UTF-16 column part: with them a
   * column becomes an offset in logarithmic time, however long its line (a minified JSON file is one line).
   */
  private final int[] pairs;

  public SourceText(String text) {
    this.text = text.startsWith("\uFEFF") ? text.substring(1) : text;
    this.lineStarts = computeLineStarts(this.text);
    this.pairs = computePairs(this.text);
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

  private static int[] computePairs(String s) {
    int[] found = NONE;
    int n = 0;
    for (int i = 0; i + 1 < s.length(); i++) {
      if (Character.isHighSurrogate(s.charAt(i)) && Character.isLowSurrogate(s.charAt(i + 1))) {
        if (n == found.length) {
          found = Arrays.copyOf(found, Math.max(16, n * 2));
        }
        found[n++] = i++;
      }
    }
    return n == found.length ? found : Arrays.copyOf(found, n);
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

  /** The UTF-16 offset at which a line's text ends, before its line break. */
  public int lineEnd(int line) {
    int l = Math.max(0, Math.min(line, lineStarts.length - 1));
    int start = lineStarts[l];
    int end = nextLineStart(l);
    while (end > start && (text.charAt(end - 1) == '\n' || text.charAt(end - 1) == '\r')) {
      end--;
    }
    return end;
  }

  private int nextLineStart(int line) {
    return line + 1 < lineStarts.length ? lineStarts[line + 1] : text.length();
  }

  /** A line's text without its line break. */
  public String line(int line) {
    if (line < 0 || line >= lineStarts.length) {
      return "";
    }
    return text.substring(lineStarts[line], lineEnd(line));
  }

  /** The UTF-16 offset of a position whose column counts code points. */
  public int offset(Position p) {
    int start = lineStart(p.line());
    int lineEnd = nextLineStart(Math.max(0, Math.min(p.line(), lineStarts.length - 1)));
    if (pairs.length == 0) {
      return Math.min(start + Math.max(0, p.column()), lineEnd);
    }
    // The pairs of this line before the column: the k-th pair of the line is at code point column
    // pairs[first + k] - start - k, which grows with k.
    int first = firstPairAtOrAfter(start);
    int lo = 0;
    int hi = firstPairAtOrAfter(lineEnd) - first;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (pairs[first + mid] - start - mid < p.column()) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return Math.min(start + Math.max(0, p.column()) + lo, lineEnd);
  }

  private int firstPairAtOrAfter(int offset) {
    int i = Arrays.binarySearch(pairs, offset);
    return i >= 0 ? i : -i - 1;
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
