package io.hooklens.rules.helm;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.helm.HelmAnnotations;
import io.hooklens.core.model.helm.RegisteredHooks;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YScalar;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

@RuleInfo(
    id = "HL206",
    name = "helm-hook-weight-not-integer",
    summary = "helm.sh/hook-weight is not an integer, so Helm silently uses weight 0",
    severity = Severity.WARNING,
    fixable = true,
    remediation = "Write the weight as a quoted whole number without spaces, such as \"-5\" or \"10\".",
    messages = {
        @Message(id = "notInteger", text = "helm.sh/hook-weight \"{0}\" is not an integer, so Helm silently uses"
            + " weight 0."),
        @Message(id = "notIntegerNear", text = "helm.sh/hook-weight \"{0}\" is not an integer, so Helm silently"
            + " uses weight 0; write \"{1}\"."),
        @Message(id = "empty", text = "helm.sh/hook-weight is empty, so Helm uses weight 0; write \"0\" or remove"
            + " the annotation.")
    })
public final class HelmHookWeightNotInteger implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Resource r : doc.resources()) {
      YMap.Entry e = HelmAnnotations.entry(r, HelmAnnotations.WEIGHT);
      // Numbers and booleans written without quotes are HL207's: Kubernetes rejects them outright.
      if (e == null || !(e.value() instanceof YScalar v) || v.isTemplated()
          || !(v.type() == YScalar.Type.STRING || v.type() == YScalar.Type.NULL)
          || !RegisteredHooks.hasHookKey(r) || !RegisteredHooks.readByHelm(doc, r)) {
        continue;
      }
      String s = v.type() == YScalar.Type.NULL ? "" : v.value();
      if (HelmAnnotations.isGoInt(s)) {
        continue;
      }
      if (s.isBlank()) {
        // Helm reads an empty weight as 0, so writing 0 changes nothing but the warning.
        ctx.report(FindingPlaces.valueOrKey(e), "empty")
            .fix("Write \"0\"", true, v.type() == YScalar.Type.STRING ? ctx.edits().replaceString(v, "0") : List.of());
      } else {
        String near = nearestInteger(s.trim());
        if (near == null) {
          ctx.report(v, "notInteger", s);
        } else {
          // Dropping spaces or a zero fraction keeps the number written; rounding 2.5 is a guess.
          boolean exact = new BigDecimal(near).compareTo(decimal(s.trim())) == 0;
          ctx.report(v, "notIntegerNear", s, near).fix("Write \"" + near + "\"", exact, ctx.edits().replaceString(v, near));
        }
      }
    }
  }

  private static BigDecimal decimal(String trimmed) {
    return new BigDecimal(trimmed.startsWith("+") ? trimmed.substring(1) : trimmed);
  }

  /** The integer the author most likely meant: the value without its spaces, or a decimal rounded. */
  private static String nearestInteger(String trimmed) {
    if (HelmAnnotations.isGoInt(trimmed)) {
      return String.valueOf(HelmAnnotations.parseWeight(trimmed));
    }
    if (trimmed.matches("[+-]?[0-9]+\\.[0-9]*|[+-]?\\.[0-9]+")) {
      String rounded = new BigDecimal(trimmed).setScale(0, RoundingMode.HALF_UP).toPlainString();
      return HelmAnnotations.isGoInt(rounded) ? rounded : null;
    }
    return null;
  }
}
