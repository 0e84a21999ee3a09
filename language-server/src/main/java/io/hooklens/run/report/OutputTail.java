package io.hooklens.run.report;

import io.hooklens.core.text.Printable;
import java.util.List;

/**
 * The end of an output as a report shows it: its last lines, of those at most the last bytes (whole characters
 * only), each line {@link Printable}, and how many bytes came before them.
 *
 * @param notShownBytes the bytes before {@code lines}, those not kept while it ran included
 */
record OutputTail(List<String> lines, long notShownBytes) {
  static OutputTail of(String output, long droppedBytes, int maxLines, int maxBytes) {
    String text = output.stripTrailing();
    int start = text.length();
    int lines = 0;
    long bytes = 0;
    while (start > 0) {
      int c = text.codePointBefore(start);
      bytes += utf8Length(c);
      if (c == '\n' && ++lines == maxLines || bytes > maxBytes) {
        break;
      }
      start -= Character.charCount(c);
    }
    long notShown = droppedBytes + text.substring(0, start).codePoints().map(OutputTail::utf8Length).sum();
    return new OutputTail(List.of(Printable.lines(text.substring(start)).split("\n", -1)), notShown);
  }

  private static int utf8Length(int codePoint) {
    return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
  }
}
