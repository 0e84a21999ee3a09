package io.hooklens.core.engine;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.hooklens.rules.BuiltInRules;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * {@code lint --fix} on mutated fix fixtures: lint, apply the safe fixes, lint again. Nothing throws, text
 * that read still reads, and fixing the result again changes nothing ({@link LintInvariants#checkFix}).
 */
class FixFuzzTest {
  private static final Linter LINTER = new Linter(BuiltInRules.registry());

  @FuzzTest(maxDuration = "30s")
  void fix(byte[] bytes) {
    String text;
    try {
      // As the CLI, which fixes only text that decodes.
      text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      return;
    }
    LintInvariants.checkFix(LINTER, LintFuzzTest.name(bytes), text);
  }
}
