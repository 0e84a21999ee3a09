package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RulesCommandTest {
  @Test
  void listsEveryRule() {
    CliRun r = CliRun.of("rules");
    assertEquals(0, r.exit());
    assertTrue(r.out().contains("HL401  warning  prestop-budget-exceeds-grace"), r.out());
  }

  @Test
  void explainsOneRuleWithItsParameters() {
    CliRun r = CliRun.of("rules", "prestop-budget-exceeds-grace");
    assertEquals(0, r.exit());
    assertTrue(r.out().startsWith("HL401 prestop-budget-exceeds-grace (warning)"), r.out());
    assertTrue(r.out().contains("shutdownSeconds (default 15)"), r.out());
    assertTrue(r.out().contains("docs/rules/HL401.md"), r.out());
  }

  @Test
  void unknownRuleIsAUsageError() {
    CliRun r = CliRun.of("rules", "HL999");
    assertEquals(2, r.exit());
  }

  @Test
  void versionAndHelpWork() {
    assertTrue(CliRun.of("version").out().startsWith("hooklens "));
    CliRun help = CliRun.of("lint", "--help");
    assertEquals(0, help.exit());
    assertTrue(help.out().contains("Exit codes:"), help.out());
    assertEquals(2, CliRun.of().exit());
  }
}
