package io.hooklens.core.text;

/**
 * How many columns of a monospace font or a terminal a text takes: East Asian wide and fullwidth characters and
 * emoji take two, combining marks and zero-width characters none, others one (wcwidth's rule, in its main ranges).
 */
public final class Columns {
  private Columns() {}

  public static int of(int c) {
    int type = Character.getType(c);
    if (type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK || type == Character.FORMAT
        || c == 0x200b) {
      return 0;
    }
    return wide(c) ? 2 : 1;
  }

  public static int of(String text) {
    return text.codePoints().map(Columns::of).sum();
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

  private static boolean wide(int c) {
    return c >= 0x1100 && c <= 0x115f || c >= 0x2e80 && c <= 0x303e || c >= 0x3041 && c <= 0x33ff
        || c >= 0x3400 && c <= 0x4dbf || c >= 0x4e00 && c <= 0x9fff || c >= 0xa000 && c <= 0xa4cf
        || c >= 0xac00 && c <= 0xd7a3 || c >= 0xf900 && c <= 0xfaff || c >= 0xfe30 && c <= 0xfe4f
        || c >= 0xff00 && c <= 0xff60 || c >= 0xffe0 && c <= 0xffe6 || c >= 0x1f000 && c <= 0x1faff
        || c >= 0x20000 && c <= 0x3fffd;
  }
}
