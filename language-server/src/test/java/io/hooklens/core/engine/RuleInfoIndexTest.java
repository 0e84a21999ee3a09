package io.hooklens.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.hooklens.rules.BuiltInRules;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The index the build writes holds what the rules' annotations say, for every rule and no other. */
class RuleInfoIndexTest {
  private static final String STALE = "the rule index on the class path is stale or missing; the build writes it"
      + " (mvn process-classes)";

  @Test
  void indexMatchesTheAnnotations() {
    List<Rule> rules = BuiltInRules.all();
    for (Rule rule : rules) {
      RuleDescriptor annotated = RuleDescriptor.of(rule);
      RuleDescriptor indexed = RuleInfoIndex.indexed(rule);
      String where = rule.getClass().getName() + ": " + STALE;
      assertNotNull(indexed, where);
      assertEquals(annotated.id(), indexed.id(), where);
      assertEquals(annotated.name(), indexed.name(), where);
      assertEquals(annotated.summary(), indexed.summary(), where);
      assertEquals(annotated.severity(), indexed.severity(), where);
      assertEquals(annotated.remediation(), indexed.remediation(), where);
      assertEquals(List.copyOf(annotated.messages().entrySet()), List.copyOf(indexed.messages().entrySet()), where);
      assertEquals(annotated.paramsType(), indexed.paramsType(), where);
      assertEquals(annotated.fixable(), indexed.fixable(), where);
      assertEquals(annotated.aliases(), indexed.aliases(), where);
      assertEquals(annotated.defaultParams(), indexed.defaultParams(), where);
    }
    assertEquals(rules.size(), RuleInfoIndex.size(), STALE);
  }

  @Test
  void valuesWithEscapesAndLineBreaksReadBackAsWritten() {
    Map<String, String> entries = Map.of("a.id", "HL001", "a.message.x", "line\none\ttab \\n not a break\r\n",
        "a.empty", "", "b.trailing", "ends with \\", "c.unicode", "Ünïcødé … ≤ 5×");
    String text = RuleInfoIndex.format(entries);
    assertEquals(5, text.lines().count(), text);
    assertEquals(entries, RuleInfoIndex.parse(text));
  }

}
