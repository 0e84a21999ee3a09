package io.hooklens.rules.helm;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YScalar;
import io.hooklens.core.yaml.YSeq;
import java.util.stream.Collectors;

@RuleInfo(
    id = "HL207",
    name = "helm-annotation-not-string",
    summary = "A helm.sh/ annotation is a YAML number, boolean, list or map instead of a string",
    severity = Severity.ERROR,
    fixable = true,
    remediation = "Quote the value so that it is a string, such as \"5\"; write several events or policies as one"
        + " comma-separated string.",
    messages = {
        @Message(id = "scalar", text = "{0} is written as a {1}, but annotation values must be strings: Kubernetes"
            + " rejects this object. Quote it: \"{2}\"."),
        @Message(id = "list", text = "{0} is written as a YAML list, but annotation values must be strings:"
            + " Kubernetes rejects this object. Write one comma-separated string: \"{1}\"."),
        @Message(id = "collection", text = "{0} is written as a YAML {1}, but annotation values must be strings:"
            + " Kubernetes rejects this object.")
    })
public final class HelmAnnotationNotString implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    // Every object is checked, List items included: Kubernetes rejects the value wherever it is.
    for (Resource r : doc.resources()) {
      YMap a = r.annotations();
      if (a == null) {
        continue;
      }
      for (YMap.Entry e : a.entries()) {
        String key = e.key().value();
        if (!key.startsWith("helm.sh/")) {
          continue;
        }
        YNode v = e.value();
        if (v instanceof YScalar s) {
          String type = switch (s.type()) {
            case INT, FLOAT -> "number";
            case BOOL -> "boolean";
            default -> null; // an empty value reaches Kubernetes as the empty string
          };
          if (type != null) {
            ctx.report(s, "scalar", key, type, s.value()).fix("Quote the value", true, ctx.edits().quote(s));
          }
        } else if (v instanceof YSeq seq && seq.size() > 0
            && seq.items().stream().allMatch(i -> i instanceof YScalar)) {
          String joined = seq.items().stream().map(i -> ((YScalar) i).value()).collect(Collectors.joining(","));
          ctx.report(seq, "list", key, joined);
        } else {
          ctx.report(v, "collection", key, v instanceof YSeq ? "list" : "map");
        }
      }
    }
  }
}
