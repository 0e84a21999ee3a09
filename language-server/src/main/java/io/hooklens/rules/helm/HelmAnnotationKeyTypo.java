package io.hooklens.rules.helm;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.helm.HelmAnnotations;
import io.hooklens.core.yaml.YMap;
import java.util.List;
import java.util.Locale;

@RuleInfo(
    id = "HL214",
    name = "helm-annotation-key-typo",
    summary = "An annotation key looks like a misspelt Helm hook annotation",
    severity = Severity.WARNING,
    fixable = true,
    remediation = "Rename the key to the exact Helm annotation; Helm matches keys character for character.",
    messages = @Message(id = "typo",
        text = "Unknown annotation \"{0}\"; did you mean {1}? Helm matches annotation keys exactly, so it"
            + " ignores this one."))
public final class HelmAnnotationKeyTypo implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Resource r : doc.resources()) {
      YMap annotations = r.parent() == null ? r.annotations() : null;
      if (annotations == null) {
        continue;
      }
      for (YMap.Entry e : annotations.entries()) {
        String key = e.key().value();
        if (HelmAnnotations.KNOWN_KEYS.contains(key) || e.key().isTemplated()) {
          continue;
        }
        List<String> known = suggestions(key);
        if (!known.isEmpty()) {
          var reported = ctx.report(e.key(), "typo", key, String.join(" or ", known));
          for (String k : known) {
            reported.fix("Rename to " + k, known.size() == 1, ctx.edits().renameKey(annotations, e.key(), k));
          }
        }
      }
    }
  }

  /**
   * The known keys a key was probably meant to be: first after undoing the usual slips (case, spaces,
   * {@code _} for {@code -}, a plural, {@code helm.io/}), then by edit distance.
   */
  private static List<String> suggestions(String key) {
    String n = key.trim().toLowerCase(Locale.ROOT).replace('_', '-');
    if (n.startsWith("helm.io/")) {
      n = "helm.sh/" + n.substring("helm.io/".length());
    }
    for (String candidate : List.of(n, singular(n))) {
      if (HelmAnnotations.KNOWN_KEYS.contains(candidate)) {
        return List.of(candidate);
      }
    }
    return HelmAnnotations.nearest(n, HelmAnnotations.KNOWN_KEYS);
  }

  private static String singular(String s) {
    if (s.endsWith("ies")) {
      return s.substring(0, s.length() - 3) + "y";
    }
    return s.endsWith("s") ? s.substring(0, s.length() - 1) : s;
  }
}
