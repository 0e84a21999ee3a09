package io.hooklens.lsp;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class WarmUpTest {
  /**
   * The warm-up is worth its time only if the first file's path runs in it: every family's rules, the schema
   * validators that unknown fields build (HL126, HL226, HL323), and the JSON.
   */
  @Test
  void runsEveryFamilysRulesThroughToTheNotification() {
    String json = WarmUp.publish();
    assertTrue(json.contains("\"method\":\"textDocument/publishDiagnostics\""), json);
    TreeSet<String> codes = new TreeSet<>();
    Matcher m = Pattern.compile("\"code\":\"(HL\\d\\d\\d)\"").matcher(json);
    while (m.find()) {
      codes.add(m.group(1));
    }
    assertTrue(codes.containsAll(List.of("HL126", "HL226", "HL323")), "codes found: " + codes);
    assertTrue(codes.stream().map(c -> c.charAt(2)).distinct().count() >= 4, "codes found: " + codes);
  }
}
