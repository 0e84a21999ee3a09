package io.hooklens.core.yaml;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;

/**
 * The template masker on mutated chart templates. Whatever the text, masking keeps what the reader's positions
 * rely on: the same lines, each ending as it did, every character left standing in its column, no action
 * left to read, and hidden-output marks only on lines that exist.
 */
class TemplateMaskFuzzTest {
  @FuzzTest(maxDuration = "30s")
  void mask(byte[] bytes) {
    String text = new String(bytes, StandardCharsets.UTF_8);
    TemplateMask.Result result = TemplateMask.maskAndTrack(text);
    // Lines as the reader and the engine's positions count them: LF, CRLF or a lone CR ends one.
    SourceText in = new SourceText(text);
    SourceText out = new SourceText(result.text());
    if (in.lineCount() != out.lineCount()) {
      throw new AssertionError(in.lineCount() + " lines became " + out.lineCount());
    }
    for (int n = 0; n < in.lineCount(); n++) {
      if (!lineBreak(in, n).equals(lineBreak(out, n))) {
        throw new AssertionError("line " + n + " ends otherwise");
      }
      int[] original = in.line(n).codePoints().toArray();
      int[] masked = out.line(n).codePoints().toArray();
      for (int col = 0; col < masked.length; col++) {
        int cp = masked[col];
        boolean kept = col < original.length && original[col] == cp;
        if (!kept && cp != TemplateMask.PLACEHOLDER && cp != ' ') {
          throw new AssertionError("line " + n + " column " + col + ": " + Character.toString(cp)
              + " is not where the template has it");
        }
      }
    }
    if (result.text().contains("{{")) {
      throw new AssertionError("an action is left unmasked");
    }
    int last = result.hiddenOutputLines().length() - 1;
    if (last >= in.lineCount()) {
      throw new AssertionError("hidden output marked on line " + last + " of " + in.lineCount());
    }
  }

  private static String lineBreak(SourceText s, int n) {
    int end = s.lineStart(n) + s.line(n).length();
    return s.text().substring(end, n + 1 < s.lineCount() ? s.lineStart(n + 1) : s.text().length());
  }
}
