package io.hooklens.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.rules.BuiltInRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RuleRegistryTest {
  private static final RuleRegistry REGISTRY = BuiltInRules.registry();

  /** A rule is known by id, name, alias or pattern in any case, exactly when one of the rules matches it. */
  @Test
  void knowsWhatSomeRuleMatches() {
    List<String> patterns = new ArrayList<>(List.of("", "HL", "hl1xx", "HL9xx", "hlxxx", "HLXXX", "HL10", "HL1000",
        "\u0131", "HL1\u0131x", "nope", "HL1x"));
    for (RuleDescriptor d : REGISTRY.all()) {
      patterns.add(d.id());
      patterns.add(d.id().toLowerCase(Locale.ROOT));
      patterns.add(d.name());
      patterns.add(d.name().toUpperCase(Locale.ROOT));
      patterns.add(d.name() + "x");
      patterns.addAll(d.aliases());
      // Letters whose case folds onto ASCII only as equalsIgnoreCase folds them: dotless i, Kelvin sign, long s.
      patterns.add(d.name().replace('i', '\u0131').replace('k', '\u212A').replace('s', '\u017F'));
    }
    Random random = new Random(3);
    String letters = "HLhlxX0123456789-abcdefgiknorstu\u0131\u212A";
    for (int n = 0; n < 2_000; n++) {
      StringBuilder sb = new StringBuilder();
      for (int i = random.nextInt(7); i > 0; i--) {
        sb.append(letters.charAt(random.nextInt(letters.length())));
      }
      patterns.add(sb.toString());
    }
    int known = 0;
    for (String p : patterns) {
      boolean expected = REGISTRY.all().stream().anyMatch(d -> d.matches(p));
      assertEquals(expected, REGISTRY.knows(p), p);
      known += expected ? 1 : 0;
    }
    assertTrue(known > REGISTRY.all().size(), "known patterns: " + known);
  }
}
