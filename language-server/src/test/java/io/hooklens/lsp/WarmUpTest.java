package io.hooklens.lsp;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class WarmUpTest {
  /** The warm-up is worth its time only if the first file's path runs in it: every family's rules, and the JSON. */
  @Test
  void runsEveryFamilysRulesThroughToTheNotification() {
    String json = WarmUp.publish();
    assertTrue(json.contains("\"method\":\"textDocument/publishDiagnostics\""), json);
    TreeSet<String> families = new TreeSet<>();
    Matcher m = Pattern.compile("\"code\":\"HL(\\d)\\d\\d\"").matcher(json);
    while (m.find()) {
      families.add(m.group(1));
    }
    assertTrue(families.containsAll(List.of("1", "2", "3", "4")), "families found: " + families);
  }
}
