package io.hooklens.core.text;

/**
 * How many columns of a terminal or a monospace font text takes once it is {@link Printable}: what lines a caret up
 * under a character of a line that holds CJK text, emoji or combining accents, and what keeps a report's lines
 * inside their width.
 */
public final class TerminalColumns {
  /**
   * The East Asian Wide and Fullwidth ranges of Unicode's EastAsianWidth.txt (W and F), which terminals draw two
   * columns wide, merged where they touch; sorted, first and last code point of each.
   */
  private static final int[] WIDE = {
      0x1100, 0x115F, 0x231A, 0x231B, 0x2329, 0x232A, 0x23E9, 0x23EC, 0x23F0, 0x23F0, 0x23F3, 0x23F3,
      0x25FD, 0x25FE, 0x2614, 0x2615, 0x2648, 0x2653, 0x267F, 0x267F, 0x2693, 0x2693, 0x26A1, 0x26A1,
      0x26AA, 0x26AB, 0x26BD, 0x26BE, 0x26C4, 0x26C5, 0x26CE, 0x26CE, 0x26D4, 0x26D4, 0x26EA, 0x26EA,
      0x26F2, 0x26F3, 0x26F5, 0x26F5, 0x26FA, 0x26FA, 0x26FD, 0x26FD, 0x2705, 0x2705, 0x270A, 0x270B,
      0x2728, 0x2728, 0x274C, 0x274C, 0x274E, 0x274E, 0x2753, 0x2755, 0x2757, 0x2757, 0x2795, 0x2797,
      0x27B0, 0x27B0, 0x27BF, 0x27BF, 0x2B1B, 0x2B1C, 0x2B50, 0x2B50, 0x2B55, 0x2B55, 0x2E80, 0x303E,
      0x3041, 0x33FF, 0x3400, 0x4DBF, 0x4E00, 0x9FFF, 0xA000, 0xA4CF, 0xA960, 0xA97F, 0xAC00, 0xD7A3,
      0xF900, 0xFAFF, 0xFE10, 0xFE19, 0xFE30, 0xFE6F, 0xFF00, 0xFF60, 0xFFE0, 0xFFE6, 0x16FE0, 0x16FE4,
      0x17000, 0x18AFF, 0x1B000, 0x1B2FF, 0x1F004, 0x1F004, 0x1F0CF, 0x1F0CF, 0x1F18E, 0x1F18E,
      0x1F191, 0x1F19A, 0x1F200, 0x1F251, 0x1F300, 0x1F64F, 0x1F680, 0x1F6FF, 0x1F7E0, 0x1F7EB,
      0x1F90C, 0x1F9FF, 0x1FA70, 0x1FAFF, 0x20000, 0x2FFFD, 0x30000, 0x3FFFD};

  private TerminalColumns() {}

  /**
   * The columns a code point takes as {@link Printable} shows it: its escape's length; a tab, which reports show as
   * one space, one; none for a combining mark or another character that does not move the cursor; two for a wide
   * character.
   */
  public static int of(int c) {
    if (c == '\t') {
      return 1;
    }
    String escaped = Printable.escape(c);
    if (escaped != null) {
      return escaped.length();
    }
    int type = Character.getType(c);
    if (type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK || type == Character.FORMAT) {
      return 0;
    }
    return wide(c) ? 2 : 1;
  }

  /** The columns of {@code text} as shown. */
  public static int of(String text) {
    return of(text, 0, text.length());
  }

  /** The length, in chars, of the longest start of {@code text} that fits in {@code columns}; never splits a pair. */
  public static int fit(String text, int columns) {
    int used = 0;
    int i = 0;
    while (i < text.length()) {
      int c = text.codePointAt(i);
      used += of(c);
      if (used > columns) {
        break;
      }
      i += Character.charCount(c);
    }
    return i;
  }

  /** The columns of {@code text.substring(from, to)} as shown. */
  public static int of(String text, int from, int to) {
    int columns = 0;
    for (int i = from; i < to; ) {
      int c = text.codePointAt(i);
      columns += of(c);
      i += Character.charCount(c);
    }
    return columns;
  }

  private static boolean wide(int c) {
    if (c < WIDE[0]) {
      return false;
    }
    int lo = 0;
    int hi = WIDE.length / 2 - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (WIDE[2 * mid] <= c) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return c <= WIDE[2 * lo + 1];
  }
}
