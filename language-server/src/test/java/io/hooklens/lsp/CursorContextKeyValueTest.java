package io.hooklens.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The hand-written reader of {@code key: value} lines reads what the regular expression it replaced read, on
 * every short line over the characters that matter, and reads long lines without overflowing the stack.
 */
class CursorContextKeyValueTest {
  /** The expression CursorContext used; its backtracking overflows the stack on a long quoted key. */
  private static final Pattern KEY_VALUE =
      Pattern.compile("(\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^']|'')*'|[^\\s#'\"{\\[][^#]*?)\\s*:(?:(\\s+)(.*))?");

  private static final char[] ALPHABET = {'a', 'b', ' ', '\t', ':', '#', '"', '\'', '\\', '{', '[', '}', '\n',
      '\r', '\u2028', '\u0085', 'x'};

  private static void same(String line) {
    Matcher m = KEY_VALUE.matcher(line);
    CursorContext.KeyValue kv = CursorContext.KeyValue.of(line);
    if (!m.matches()) {
      assertNull(kv, () -> "no key in " + printable(line));
      return;
    }
    assertNotNull(kv, () -> "a key in " + printable(line));
    assertEquals(m.group(1), kv.key(), () -> printable(line));
    assertEquals(m.group(2) != null, kv.spaced(), () -> printable(line));
    if (m.group(2) != null) {
      assertEquals(m.start(3), kv.valueStart(), () -> printable(line));
    }
  }

  private static String printable(String s) {
    return s.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t").replace("\u2028", "\\u2028")
        .replace("\u0085", "\\u0085");
  }

  @Test
  void everyShortLineReadsAsTheExpressionReadsIt() {
    // Every line of up to four characters over the alphabet: 88,000 lines.
    int n = ALPHABET.length;
    for (int len = 0; len <= 4; len++) {
      int total = (int) Math.pow(n, len);
      char[] c = new char[len];
      for (int i = 0; i < total; i++) {
        int x = i;
        for (int k = 0; k < len; k++) {
          c[k] = ALPHABET[x % n];
          x /= n;
        }
        same(new String(c));
      }
    }
  }

  @Test
  void randomLongerLinesReadAsTheExpressionReadsThem() {
    Random random = new Random(14);
    for (int i = 0; i < 100_000; i++) {
      char[] c = new char[5 + random.nextInt(20)];
      for (int k = 0; k < c.length; k++) {
        c[k] = ALPHABET[random.nextInt(ALPHABET.length)];
      }
      same(new String(c));
    }
    same("command: [\"sh\", \"-c\", \"sleep 5\"]  # why");
    same("\"helm.sh/hook\": pre-install, post-install");
    same("'it''s': x");
  }

  @Test
  void linesOfTemplateActionsReadAsTheExpressionReadsThem() {
    Pattern action = Pattern.compile("\\{\\{.*?}}");
    char[] alphabet = {'{', '}', ' ', 'a', '\n', '\u2028'};
    Random random = new Random(14);
    for (int i = 0; i < 100_000; i++) {
      StringBuilder s = new StringBuilder("{{");
      int len = random.nextInt(12);
      for (int k = 0; k < len; k++) {
        s.append(alphabet[random.nextInt(alphabet.length)]);
      }
      String t = s.toString();
      assertEquals(action.matcher(t).replaceAll("").isBlank(), CursorContext.onlyActions(t), () -> printable(t));
    }
  }

  @Test
  void aLongQuotedKeyIsReadWithoutOverflowingTheStack() {
    String key = "\"" + "a".repeat(200_000) + "\"";
    CursorContext.KeyValue kv = CursorContext.KeyValue.of(key + ": value");
    assertEquals(key, kv.key());
    assertEquals(key.length() + 2, kv.valueStart());
    assertNull(CursorContext.KeyValue.of("\"" + "a\\\"".repeat(100_000)));
    assertNull(CursorContext.KeyValue.of("'" + "a''".repeat(100_000)));
    assertNull(CursorContext.KeyValue.of("a" + " :x".repeat(100_000) + "\u2028"));
  }
}
