package io.hooklens.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** UTF-16 and UTF-32 text is told apart from UTF-8 and from binary content, with or without a byte-order mark. */
class WideEncodingTest {
  private static final String MANIFEST = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web # café, 東京\n";

  @ParameterizedTest(name = "{0} with mark {1}")
  @CsvSource({
      "UTF-16LE, FF FE", "UTF-16BE, FE FF", "UTF-32LE, FF FE 00 00", "UTF-32BE, 00 00 FE FF"})
  void aMarkedFileIsNamedByItsEncoding(String encoding, String mark) {
    byte[] bytes = encode("\uFEFF" + MANIFEST, encoding);
    Linter.Decoded d = Linter.decode(bytes);
    assertTrue(d.refused());
    assertEquals("The file is " + encoding + " encoded (byte-order mark " + mark + "); save it as UTF-8", d.refusal());
  }

  @ParameterizedTest
  @ValueSource(strings = {"UTF-16LE", "UTF-16BE", "UTF-32LE", "UTF-32BE"})
  void anUnmarkedFileIsKnownByItsNuls(String encoding) {
    Linter.Decoded d = Linter.decode(encode(MANIFEST, encoding));
    assertTrue(d.refused());
    assertTrue(d.refusal().startsWith("The file is " + encoding + " encoded (no byte-order mark; "), d.refusal());
    assertTrue(d.refusal().endsWith(" NUL); save it as UTF-8"), d.refusal());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "\uFEFF"})
  void utf8IsRead(String mark) {
    assertEquals(mark + MANIFEST, Linter.decode(encode(mark + MANIFEST, "UTF-8")).text());
  }

  @ParameterizedTest
  @ValueSource(ints = {8, 9})
  void binaryContentIsStillBinary(int length) {
    // A PNG header, then NULs: no text in any encoding, odd or even in length.
    byte[] png = Arrays.copyOf(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'}, length + 8);
    Linter.Decoded d = Linter.decode(png);
    assertTrue(d.refused());
    assertTrue(d.refusal().startsWith("The file contains a NUL byte at offset 8; it is binary"), d.refusal());
    assertFalse(d.refusal().contains("UTF-"), d.refusal());
  }

  private static byte[] encode(String text, String encoding) {
    return text.getBytes(encoding.equals("UTF-8") ? StandardCharsets.UTF_8 : Charset.forName(encoding));
  }
}
