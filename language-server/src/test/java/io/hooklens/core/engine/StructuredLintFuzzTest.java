package io.hooklens.core.engine;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.hooklens.rules.BuiltInRules;

/**
 * Manifests built from the fuzzer's choices ({@link ManifestGenerator}), so that mutations land on hooks,
 * annotations and values rather than on YAML syntax: each is linted, fixed as {@code lint --fix} fixes it, and
 * both results are held to {@link LintInvariants}.
 */
class StructuredLintFuzzTest {
  private static final Linter LINTER = new Linter(BuiltInRules.registry());

  @FuzzTest(maxDuration = "30s")
  void lintAndFix(FuzzedDataProvider data) {
    ManifestGenerator.Manifest m = ManifestGenerator.generate(data);
    LintInvariants.checkFix(LINTER, m.name(), m.text());
  }
}
