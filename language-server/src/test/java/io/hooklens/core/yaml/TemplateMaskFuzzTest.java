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
    String[] in = text.split("\n", -1);
    String[] out = result.text().split("\n", -1);
    if (in.length != out.length) {
      throw new AssertionError(in.length + " lines became " + out.length);
    }
    for (int n = 0; n < in.length; n++) {
      boolean cr = in[n].endsWith("\r");
      if (cr != out[n].endsWith("\r")) {
        throw new AssertionError("line " + n + " lost or gained its CR");
      }
      int[] original = withoutCr(in[n], cr).codePoints().toArray();
      int[] masked = withoutCr(out[n], cr).codePoints().toArray();
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
    if (last >= in.length) {
      throw new AssertionError("hidden output marked on line " + last + " of " + in.length);
    }
  }

  /** A line without the CR of its CRLF, which stays where it is whatever becomes of the line. */
  private static String withoutCr(String line, boolean cr) {
    return cr ? line.substring(0, line.length() - 1) : line;
  }
}
