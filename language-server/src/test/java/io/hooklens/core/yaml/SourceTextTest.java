package io.hooklens.core.yaml;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

class SourceTextTest {
  /** Code points from a small alphabet of line breaks, astral characters and lone surrogates. */
  private static final String[] PIECES = {"a", "\n", "\r\n", "\r", "\uD83D\uDE80", "\uD83D", "\uDE80", "é", "\t"};

  @Test
  void offsetsOfCodePointColumnsAreThoseOfCountingCodePoints() {
    Random random = new Random(7);
    for (int round = 0; round < 300; round++) {
      StringBuilder sb = new StringBuilder();
      for (int i = random.nextInt(60); i > 0; i--) {
        sb.append(PIECES[random.nextInt(PIECES.length)]);
      }
      SourceText source = new SourceText(sb.toString());
      for (int line = 0; line < source.lineCount(); line++) {
        for (int column = 0; column < 70; column++) {
          Position p = new Position(line, column);
          assertEquals(counted(source, p), source.offset(p), sb + " at " + p);
        }
        int end = source.lineEnd(line);
        String text = source.text();
        assertEquals(-1, text.substring(source.lineStart(line), end).indexOf('\n'));
        assertEquals(-1, text.substring(source.lineStart(line), end).indexOf('\r'));
        assertEquals(line + 1 < source.lineCount(), end < text.length() && "\r\n".indexOf(text.charAt(end)) >= 0);
      }
    }
  }

  /** Walks the line code point by code point, never past its line break. */
  private static int counted(SourceText source, Position p) {
    String text = source.text();
    int end = p.line() + 1 < source.lineCount() ? source.lineStart(p.line() + 1) : text.length();
    int off = source.lineStart(p.line());
    for (int cp = 0; cp < p.column() && off < end; cp++) {
      off += Character.charCount(text.codePointAt(off));
    }
    return off;
  }
}
