package io.hooklens.core.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Text from manifests and processes, shown as visible escapes instead of driving the terminal. */
class PrintableTest {
  private static String escaped(String format, int c) {
    return String.format(Locale.ROOT, format, c);
  }

  @Test
  void everyC0ControlButTabIsEscapedTheLineBreaksByNameSoTerminalSequencesLoseTheirEscape() {
    IntStream.range(0, 0x20).filter(c -> c != '\t' && c != '\n' && c != '\r').forEach(c ->
        assertEquals("a" + escaped("\\x%02x", c) + "b", Printable.line("a" + (char) c + "b"), escaped("U+%04X", c)));
    assertEquals("one\\r\\ntwo\\rthree\\n", Printable.line("one\r\ntwo\rthree\n"));
    assertEquals("key\tvalue", Printable.line("key\tvalue"));
    assertEquals("\\x1b]0;title\\x07\\x1b[2J\\x1b[1;1H", Printable.line("\u001b]0;title\u0007\u001b[2J\u001b[1;1H"));
  }

  @Test
  void linesKeepTheirBreaksAndReadCrlfAsOneButShowALoneCarriageReturn() {
    assertEquals("one\ntwo\n\tindented\n", Printable.lines("one\r\ntwo\n\tindented\n"));
    assertEquals("10%\\r50%\\r100%\n", Printable.lines("10%\r50%\r100%\n"));
    assertEquals("\\x1b[31mred\\x1b[0m\\u009b2J\n", Printable.lines("\u001b[31mred\u001b[0m\u009b2J\n"));
  }

  @Test
  void deleteAndEveryC1ControlAreEscaped() {
    assertEquals("a\\x7fb", Printable.line("a\u007fb"));
    // U+009B is a one-character CSI on terminals that take C1 controls; U+0085 a line break in some editors.
    IntStream.rangeClosed(0x80, 0x9f).forEach(c ->
        assertEquals(escaped("\\u%04x", c), Printable.line(String.valueOf((char) c)), escaped("U+%04X", c)));
  }

  @Test
  void charactersThatReorderOrBreakTheLineAreEscaped() {
    List<Integer> reorder = List.of(0x061c, 0x200e, 0x200f, 0x2028, 0x2029, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e,
        0x2066, 0x2067, 0x2068, 0x2069);
    reorder.forEach(c -> assertEquals(escaped("x\\u%04x", c), Printable.line("x" + (char) c.intValue())));
    assertEquals("rm \\u202e-rf\\u202c x", Printable.line("rm \u202e-rf\u202c x"));
  }

  @Test
  void otherTextIsUnchangedBackslashesIncludedButALoneSurrogateIsReplaced() {
    String text = "C:\\temp\\x1b is just text — ünïcödé, 中文, \"quoted\" 'name', 😀 \ud800\udc00";
    assertEquals(text, Printable.line(text));
    assertEquals(text, Printable.lines(text));
    assertEquals("a\ufffdb\ufffdc", Printable.line("a\ud800b\udc00c"));
    assertEquals("end\ufffd", Printable.lines("end\ud83d"));
  }

  @Test
  void aLongLineIsEscapedWholeInOnePass() {
    String line = ("x".repeat(99) + "\u001b").repeat(20_000);
    String shown = Printable.line(line);
    assertEquals(line.length() + 3 * 20_000, shown.length());
    assertTrue(shown.chars().noneMatch(c -> c < 0x20), "no control character left");
    assertTrue(shown.endsWith("x\\x1b"), shown.substring(shown.length() - 10));
  }
}
