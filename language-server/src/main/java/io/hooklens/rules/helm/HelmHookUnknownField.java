package io.hooklens.rules.helm;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.Container;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.PodSpec;
import io.hooklens.core.model.Spelling;
import io.hooklens.core.model.helm.HelmHook;
import io.hooklens.core.yaml.Range;
import io.hooklens.core.yaml.SchemaCheck;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import java.util.List;

@RuleInfo(
    id = "HL226",
    name = "helm-hook-unknown-field",
    summary = "A hook Job or Pod has a field its API types do not know",
    severity = Severity.ERROR,
    remediation = "Correct the field to the name the API uses, or remove it.",
    messages = {
        @Message(id = "near", text = "Unknown field \"{0}\" in {1} of hook {2} (did you mean {3}?): "
            + HelmHookUnknownField.FATE + "{4}."),
        @Message(id = "unknown", text = "Unknown field \"{0}\" in {1} of hook {2}, which takes {3}: "
            + HelmHookUnknownField.FATE + "."),
        @Message(id = "levelUp", text = "Unknown field \"{0}\" in {1} of hook {2}: it belongs one level down, in {3};"
            + " " + HelmHookUnknownField.FATE + "{4}."),
        @Message(id = "unknownMany", text = "Unknown field \"{0}\" in {1} of hook {2}: "
            + HelmHookUnknownField.FATE + ".")
    })
public final class HelmHookUnknownField implements Rule {
  /** Helm 3 asks for no field validation, so the server's default, Warn, applies to what it installs. */
  static final String FATE = "the API server drops it, and Helm 3 only prints its \"unknown field\" warning;"
      + " kubectl apply, whose --validate is strict by default, refuses the object";

  /** Generated from fabric8's Kubernetes model by HookPodSchemaTest. */
  static final String SCHEMA_RESOURCE = "io/hooklens/rules/helm/hook-pod.schema.json";

  private static final String RESTART_POLICY = "restartPolicy";

  /** A pod spec has some forty fields: a list that long would bury the message. */
  private static final int MAX_LISTED = 8;

  /** Loaded on first use, once per process; the schema is immutable. */
  private static final class Schema {
    static final SchemaCheck HOOK_POD = SchemaCheck.load(SCHEMA_RESOURCE);
  }

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (HelmHook h : HelmHook.in(doc)) {
      if (!checked(h)) {
        continue;
      }
      PodSpec pod = h.podSpec(doc);
      for (SchemaCheck.Violation v : Schema.HOOK_POD.validate(h.resource().root())) {
        if (v.keyword().equals("additionalProperties") && !misspeltSidecar(doc, v)) {
          report(ctx, h, v, pod != null && standsFor(v, pod, RESTART_POLICY) ? dropsRestartPolicy(h) : "");
        }
      }
    }
  }

  private static boolean checked(HelmHook h) {
    String api = h.resource().apiVersion();
    return (h.kind().equals("Job") && "batch/v1".equals(api)) || (h.kind().equals("Pod") && "v1".equals(api));
  }

  /**
   * Whether this rule reports, where the hook's pod spec lacks {@code field}, a key of the pod spec that misspells
   * it or {@code field} itself one level too high: a rule about the missing field then says nothing more.
   */
  static boolean misplaces(HelmHook h, PodSpec pod, String field) {
    return checked(h) && Schema.HOOK_POD.validate(h.resource().root()).stream().anyMatch(v -> standsFor(v, pod, field));
  }

  /** Whether an unknown-field violation is a key of the pod spec misspelling {@code field}, or it one level up. */
  private static boolean standsFor(SchemaCheck.Violation v, PodSpec pod, String field) {
    if (!v.keyword().equals("additionalProperties") || pod.node().entry(field) != null
        || ((YMap) v.node()).entry(v.property()).key().isTemplated()) {
      return false;
    }
    Range at = v.node().range();
    YNode above = pod.node().parent();
    return (at.equals(pod.node().range())
            && Spelling.nearestField(v.property(), SchemaCheck.properties(v.schema())).contains(field))
        || (above != null && at.equals(above.range()) && v.property().equals(field));
  }

  /** Whether the unknown key is an init container's misspelt {@code restartPolicy: Always}, which HL118 reports. */
  private static boolean misspeltSidecar(HookDocument doc, SchemaCheck.Violation v) {
    for (Container c : doc.containers()) {
      YMap.Entry e = c.misspeltSidecar();
      if (e != null && c.node().range().equals(v.node().range()) && e.key().value().equals(v.property())) {
        return true;
      }
    }
    return false;
  }

  /** What dropping the pod's restartPolicy does, said here since HL215 and HL216 do not say it again. */
  private static String dropsRestartPolicy(HelmHook h) {
    return h.kind().equals("Job")
        ? "; the pod template is left without restartPolicy, whose default, Always, the API refuses in a Job, so"
            + " the hook and the release fail"
        : "; the Pod is left with the default restartPolicy, Always, so it never completes and Helm waits for it"
            + " until --timeout";
  }

  private static void report(RuleContext ctx, HelmHook h, SchemaCheck.Violation v, String consequence) {
    YMap.Entry e = ((YMap) v.node()).entry(v.property());
    if (e.key().isTemplated()) {
      return;
    }
    String where = v.path().isEmpty() ? h.kind() : SchemaCheck.describe(v.path());
    List<String> known = SchemaCheck.properties(v.schema());
    List<String> near = Spelling.nearestField(v.property(), known);
    String hook = h.resource().displayName();
    List<String> children = near.isEmpty() ? Schema.HOOK_POD.childrenDeclaring(v.schema(), v.property()) : List.of();
    if (!children.isEmpty()) {
      String base = v.path().isEmpty() ? "" : where + ".";
      ctx.report(e.key(), "levelUp", v.property(), where, hook,
          String.join(" or ", children.stream().map(c -> base + c).toList()), consequence);
    } else if (near.isEmpty() && known.size() > MAX_LISTED) {
      ctx.report(e.key(), "unknownMany", v.property(), where, hook);
    } else if (near.isEmpty()) {
      ctx.report(e.key(), "unknown", v.property(), where, hook, String.join(", ", known));
    } else {
      ctx.report(e.key(), "near", v.property(), where, hook, String.join(" or ", near), consequence);
    }
  }
}
