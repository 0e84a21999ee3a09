package io.hooklens.rules.helm;

import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.TextEdit;
import io.hooklens.core.yaml.YScalar;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Fixes of Helm's comma-separated annotations: items replaced in place, the rest as written. */
final class HelmFixes {
  private HelmFixes() {}

  /**
   * Edits that replace every item Helm normalises to {@code normalized} with {@code replacement},
   * keeping the spaces around it; one edit per item when the value stands literally in the text.
   */
  static List<TextEdit> replaceItem(RuleContext ctx, YScalar v, String normalized, String replacement) {
    String value = v.value();
    StringBuilder whole = new StringBuilder();
    List<int[]> spans = new ArrayList<>();
    int at = 0;
    for (String part : value.split(",", -1)) {
      int s = 0;
      int e = part.length();
      while (s < e && part.charAt(s) <= ' ') {
        s++;
      }
      while (e > s && part.charAt(e - 1) <= ' ') {
        e--;
      }
      if (whole.length() > 0 || at > 0) {
        whole.append(',');
      }
      String item = part.substring(s, e);
      if (item.toLowerCase(Locale.ROOT).equals(normalized) && !item.equals(replacement)) {
        spans.add(new int[] {value.codePointCount(0, at + s), value.codePointCount(0, at + e)});
        whole.append(part, 0, s).append(replacement).append(part.substring(e));
      } else {
        whole.append(part);
      }
      at += part.length() + 1;
    }
    List<TextEdit> edits = new ArrayList<>();
    for (int[] span : spans) {
      List<TextEdit> one = ctx.edits().replaceInValue(v, span[0], span[1], replacement);
      if (one.isEmpty() || one.get(0).range().equals(v.range())) {
        return ctx.edits().replaceString(v, whole.toString());
      }
      edits.addAll(one);
    }
    return edits;
  }

  static String title(String from, String to) {
    return "Replace \"" + from + "\" with \"" + to + "\"";
  }
}
