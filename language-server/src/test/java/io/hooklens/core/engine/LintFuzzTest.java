package io.hooklens.core.engine;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.hooklens.rules.BuiltInRules;

/**
 * One file's bytes through the engine as {@code hooklens lint FILE} hands them over: decoding, refusal of
 * binary and non-UTF-8 input, the YAML or JSON reader (chart templates masked) and every rule. The seeds are
 * small files of the sample corpus and {@code examples/}, so that mutations start from real manifests.
 */
class LintFuzzTest {
  private static final Linter LINTER = new Linter(BuiltInRules.registry());

  @FuzzTest(maxDuration = "30s")
  void lint(byte[] bytes) {
    LintInvariants.check(LINTER.lint(name(bytes), bytes, Config.DEFAULT), LINTER.registry());
  }

  /** JSON is told by the file name, so text that starts as JSON does gets a JSON name. */
  static String name(byte[] bytes) {
    for (byte b : bytes) {
      if (b == '{' || b == '[') {
        return "input.json";
      }
      if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
        break;
      }
    }
    return "input.yaml";
  }
}
