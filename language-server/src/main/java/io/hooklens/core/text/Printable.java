package io.hooklens.core.text;

import java.util.Locale;

/**
 * Text from a manifest or a process, made safe to show on a terminal or in an editor: what could move the
 * cursor, retitle the window, clear the screen, reorder or break a line is shown as a visible escape in bash's
 * {@code $'...'} notation instead. C0 controls and DEL become {@code \x1b} ({@code \n} and {@code \r} for the
 * line breaks), C1 controls and the characters that reorder or break lines in editors (bidirectional controls,
 * U+2028, U+2029) <code>&#92;u009b</code>; a lone surrogate becomes U+FFFD. A tab stays. Backslashes are left as
 * they are, so {@code \x1b} in the result may also be those four characters as printed.
 */
public final class Printable {
  private static final int REPLACEMENT = 0xFFFD;

  private Printable() {}

  /** Text for one line: every line break is escaped too. */
  public static String line(String text) {
    StringBuilder s = new StringBuilder(text.length());
    text.codePoints().forEach(c -> append(s, c));
    return s.toString();
  }

  /** Text of several lines: {@code \n} and {@code \r\n} stay line breaks ({@code \n}); a lone {@code \r} is shown. */
  public static String lines(String text) {
    StringBuilder s = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); ) {
      int c = text.codePointAt(i);
      i += Character.charCount(c);
      if (c == '\n' || c == '\r' && i < text.length() && text.charAt(i) == '\n') {
        s.append(c == '\n' ? "\n" : "");
      } else {
        append(s, c);
      }
    }
    return s.toString();
  }

  /** How a code point is shown when it does not print as itself; null when it does (a tab does). */
  public static String escape(int c) {
    if (c == '\n') {
      return "\\n";
    }
    if (c == '\r') {
      return "\\r";
    }
    if (c < 0x20 && c != '\t' || c == 0x7f) {
      return String.format(Locale.ROOT, "\\x%02x", c);
    }
    if (c >= 0x80 && c <= 0x9f || reordersOrBreaks(c)) {
      return String.format(Locale.ROOT, "\\u%04x", c);
    }
    if (c <= Character.MAX_VALUE && Character.isSurrogate((char) c)) {
      return Character.toString(REPLACEMENT);
    }
    return null;
  }

  private static boolean reordersOrBreaks(int c) {
    return c == 0x061c || c == 0x200e || c == 0x200f || c >= 0x2028 && c <= 0x202e || c >= 0x2066 && c <= 0x2069;
  }

  private static void append(StringBuilder s, int c) {
    String escaped = escape(c);
    if (escaped == null) {
      s.appendCodePoint(c);
    } else {
      s.append(escaped);
    }
  }
}
