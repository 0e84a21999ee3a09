package io.hooklens.core.engine;

import java.util.List;
import java.util.Optional;

/**
 * Recognises text in UTF-16 or UTF-32, which Windows tools write (PowerShell 5's {@code >}, Notepad's
 * "Unicode"), by its byte-order mark or, without one, by the NUL bytes that ASCII has in those encodings.
 * Told apart from binary content so that the message can say what to do.
 */
final class WideEncoding {
  /** How much of a file is looked at without a mark: enough lines to see the pattern. */
  private static final int SAMPLE = 4096;

  /** Share of code units that must look like ASCII without a mark; the rest may be other letters. */
  private static final double ASCII_SHARE = 0.75;

  /**
   * One encoding: its name, its byte-order mark, and where the ASCII byte of a code unit is (the others
   * being NUL).
   */
  private record Layout(String name, byte[] mark, int unit, int asciiAt) {}

  /** UTF-32 first: its mark starts as UTF-16LE's, and its NULs would half match UTF-16's pattern. */
  private static final List<Layout> LAYOUTS = List.of(
      new Layout("UTF-32BE", bytes(0x00, 0x00, 0xFE, 0xFF), 4, 3),
      new Layout("UTF-32LE", bytes(0xFF, 0xFE, 0x00, 0x00), 4, 0),
      new Layout("UTF-16BE", bytes(0xFE, 0xFF), 2, 1),
      new Layout("UTF-16LE", bytes(0xFF, 0xFE), 2, 0));

  private WideEncoding() {}

  /** The encoding and how it shows, such as {@code UTF-16LE encoded (byte-order mark FF FE)}, or empty. */
  static Optional<String> describe(byte[] content) {
    for (Layout l : LAYOUTS) {
      if (startsWith(content, l.mark())) {
        return Optional.of(l.name() + " encoded (byte-order mark " + hex(l.mark()) + ")");
      }
    }
    for (Layout l : LAYOUTS) {
      if (looksLikeAscii(content, l)) {
        return Optional.of(l.name() + " encoded (no byte-order mark; "
            + (l.unit() == 2 ? "every other byte is" : "three bytes in four are") + " NUL)");
      }
    }
    return Optional.empty();
  }

  private static boolean looksLikeAscii(byte[] content, Layout l) {
    if (content.length == 0 || content.length % l.unit() != 0) {
      return false;
    }
    int units = Math.min(content.length, SAMPLE) / l.unit();
    int ascii = 0;
    for (int u = 0; u < units; u++) {
      boolean nulElsewhere = true;
      for (int i = 0; i < l.unit(); i++) {
        if (i != l.asciiAt() && content[u * l.unit() + i] != 0) {
          nulElsewhere = false;
        }
      }
      byte b = content[u * l.unit() + l.asciiAt()];
      if (nulElsewhere && b > 0) {
        ascii++;
      }
    }
    return ascii >= units * ASCII_SHARE;
  }

  private static boolean startsWith(byte[] content, byte[] prefix) {
    if (content.length < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (content[i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  private static String hex(byte[] mark) {
    StringBuilder sb = new StringBuilder();
    for (byte b : mark) {
      sb.append(sb.isEmpty() ? "" : " ").append(String.format("%02X", b & 0xFF));
    }
    return sb.toString();
  }

  private static byte[] bytes(int... values) {
    byte[] out = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = (byte) values[i];
    }
    return out;
  }
}
