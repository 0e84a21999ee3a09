package io.hooklens.run.node;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * HPACK (RFC 7541) as far as a gRPC health check reads it: a header block from a server told that the dynamic
 * table has size 0, so every field is a static-table reference or a literal, plain or Huffman-coded. Fields named
 * by the static table are skipped: no gRPC field is in it.
 */
final class Hpack {
  /** The last 61 entries of the static table are the highest index a field may refer to here. */
  private static final int STATIC_ENTRIES = 61;
  /**
   * The Huffman code's lengths (Appendix B), symbol 0 to 256 (EOS), as {@code 'a'} + length - 5. The code is
   * canonical: codes follow from the lengths, shortest first, then by symbol.
   */
  private static final String CODE_LENGTHS = "isxxxxxxxtzxxzxxxxxxxxzxxxxxxxxxbffhibdgffdgdbbbaaabbbbbbbcdkbhfibccccc"
      + "cccccccccccccccccdcdioijbkabababbbaccbbbabcbaabccccckgjixprpprrrsrssssststtrstssssqrsrsstrqprrssqsrrtqrssqqr"
      + "qsrssprrrsrrsvvporsruvvvwwvtuoqvwwvwtqqvvxwwwptpqrqqsrruuttvsvwvvwwwwwxwwwwwvz";
  private static final int MAX_LENGTH = 30;
  /** Per code length: the first code, and where its symbols start in {@link #SYMBOLS}. */
  private static final int[] FIRST_CODE = new int[MAX_LENGTH + 2];
  private static final int[] FIRST_SYMBOL = new int[MAX_LENGTH + 2];
  private static final int[] COUNT = new int[MAX_LENGTH + 2];
  private static final int[] SYMBOLS = new int[CODE_LENGTHS.length()];

  static {
    int next = 0;
    for (int length = 1; length <= MAX_LENGTH; length++) {
      FIRST_SYMBOL[length] = next;
      for (int symbol = 0; symbol < CODE_LENGTHS.length(); symbol++) {
        if (CODE_LENGTHS.charAt(symbol) - 'a' + 5 == length) {
          SYMBOLS[next++] = symbol;
          COUNT[length]++;
        }
      }
    }
    int code = 0;
    for (int length = 1; length <= MAX_LENGTH; length++) {
      FIRST_CODE[length] = code;
      code = (code + COUNT[length]) << 1;
    }
  }

  /** The fields of a header block, by name; later ones win. */
  static final class Fields {
    private final Map<String, String> values = new HashMap<>();

    String get(String name) {
      return values.get(name);
    }
  }

  private final byte[] block;
  private int at;

  private Hpack(byte[] block) {
    this.block = block;
  }

  static Fields decode(byte[] block) throws IOException {
    Hpack reader = new Hpack(block);
    Fields fields = new Fields();
    while (reader.at < block.length) {
      int b = block[reader.at] & 0xff;
      if ((b & 0x80) != 0) {
        reader.index(reader.integer(7));
        continue;
      }
      if ((b & 0xe0) == 0x20) {
        // A dynamic table size update: the table stays empty all the same.
        reader.integer(5);
        continue;
      }
      int name = reader.integer((b & 0xc0) == 0x40 ? 6 : 4);
      String key = name == 0 ? reader.string() : null;
      if (name != 0) {
        reader.index(name);
      }
      String value = reader.string();
      if (key != null) {
        fields.values.put(key, value);
      }
    }
    return fields;
  }

  private void index(int index) throws IOException {
    if (index < 1 || index > STATIC_ENTRIES) {
      throw new IOException("header field index " + index + " is not in the static table");
    }
  }

  /** An integer with an {@code prefix}-bit prefix (5.1). */
  private int integer(int prefix) throws IOException {
    int max = (1 << prefix) - 1;
    int value = byteAt() & max;
    if (value < max) {
      return value;
    }
    for (int shift = 0; shift <= 21; shift += 7) {
      int b = byteAt();
      value += (b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        return value;
      }
    }
    throw new IOException("header integer too large");
  }

  private int byteAt() throws IOException {
    if (at >= block.length) {
      throw new IOException("header block ends inside a field");
    }
    return block[at++] & 0xff;
  }

  /** A string literal (5.2). */
  private String string() throws IOException {
    boolean huffman = at < block.length && (block[at] & 0x80) != 0;
    int length = integer(7);
    if (length > block.length - at) {
      throw new IOException("header string longer than its block");
    }
    int from = at;
    at += length;
    return huffman ? huffman(from, length)
        : new String(block, from, length, StandardCharsets.UTF_8);
  }

  private String huffman(int from, int length) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code = 0;
    int bits = 0;
    for (int i = from; i < from + length; i++) {
      for (int bit = 7; bit >= 0; bit--) {
        code = (code << 1) | ((block[i] >> bit) & 1);
        bits++;
        int offset = code - FIRST_CODE[bits];
        if (offset >= 0 && offset < COUNT[bits]) {
          int symbol = SYMBOLS[FIRST_SYMBOL[bits] + offset];
          if (symbol == 256) {
            throw new IOException("Huffman string holds EOS");
          }
          out.write(symbol);
          code = 0;
          bits = 0;
        } else if (bits >= MAX_LENGTH) {
          throw new IOException("invalid Huffman code");
        }
      }
    }
    // What is left is padding: at most 7 bits, all ones (5.2).
    if (bits > 7 || code != (1 << bits) - 1) {
      throw new IOException("invalid Huffman padding");
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  /** Writes an integer with an {@code prefix}-bit prefix after {@code flags} (5.1). */
  static void integer(ByteArrayOutputStream out, int flags, int prefix, int value) {
    int max = (1 << prefix) - 1;
    if (value < max) {
      out.write(flags | value);
      return;
    }
    out.write(flags | max);
    value -= max;
    while (value >= 0x80) {
      out.write((value & 0x7f) | 0x80);
      value >>>= 7;
    }
    out.write(value);
  }
}
