package io.hooklens.rules.openshift;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Spelling;
import io.hooklens.core.model.openshift.DcHook;
import io.hooklens.core.model.openshift.DcPhase;
import io.hooklens.core.yaml.SchemaCheck;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YScalar;
import io.hooklens.core.yaml.YSeq;
import java.util.List;
import java.util.Set;

@RuleInfo(
    id = "HL323",
    name = "dc-hook-unknown-field",
    summary = "A DeploymentConfig hook has a field that apps.openshift.io/v1 does not know",
    severity = Severity.ERROR,
    remediation = "Correct or remove the field. An execNewPod hook has no args: put the arguments at the end of"
        + " command, as in [\"/bin/sh\", \"-c\", \"./migrate.sh\"].",
    messages = {
        @Message(id = "near", text = "Unknown field \"{0}\" in {1} (did you mean {2}?): "
            + SchemaCheck.UNKNOWN_FIELD_FATE + "."),
        @Message(id = "unknown", text = "Unknown field \"{0}\" in {1}, which takes {2}: "
            + SchemaCheck.UNKNOWN_FIELD_FATE + "."),
        @Message(id = "levelUp", text = "Unknown field \"{0}\" in {1}: it belongs one level down, in {2}; "
            + SchemaCheck.UNKNOWN_FIELD_FATE + "."),
        @Message(id = "argsScript", text = "Unknown field \"args\" in {0}: execNewPod has no args (only the 2015"
            + " design proposal had them); " + SchemaCheck.UNKNOWN_FIELD_FATE + ". The hook runs \"{1}\" with"
            + " no script, which fails; put the script at the end of command."),
        @Message(id = "args", text = "Unknown field \"args\" in {0}: execNewPod has no args (only the 2015 design"
            + " proposal had them); " + SchemaCheck.UNKNOWN_FIELD_FATE + ". The hook runs command without"
            + " them; put the arguments at the end of command.")
    })
public final class DcHookUnknownField implements Rule {
  /** Where the schema module packages {@code schemas/deploymentconfig-hook.schema.json}. */
  static final String SCHEMA_RESOURCE = "io/hooklens/schemas/deploymentconfig-hook.schema.json";

  private static final Set<String> SHELLS = Set.of("sh", "bash", "ash", "dash", "ksh", "zsh");

  /** Loaded on first use, once per process; the schema is immutable. */
  private static final class Schema {
    static final SchemaCheck HOOK = SchemaCheck.load(SCHEMA_RESOURCE);
  }

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (DcHook h : DcHook.in(doc)) {
      // The proposal's strategy.lifecycle and rollingParams.mid are unknown as a whole: HL320's and HL310's.
      boolean rollingMid = h.params().equals("rollingParams") && h.phase() == DcPhase.MID;
      if (h.form() == DcHook.Form.PARAMS && !rollingMid && h.hook() != null) {
        check(h, ctx);
      }
    }
  }

  private static void check(DcHook h, RuleContext ctx) {
    for (SchemaCheck.Violation v : Schema.HOOK.validate(h.hook())) {
      if (!v.keyword().equals("additionalProperties")) {
        // Types, values and required fields have rules of their own (HL301, HL302, HL305, HL306...).
        continue;
      }
      YMap map = (YMap) v.node();
      YMap.Entry e = map.entry(v.property());
      if (e.key().isTemplated()) {
        continue;
      }
      String where = "spec.strategy." + h.params() + "." + h.phase().key()
          + (v.path().isEmpty() ? "" : "." + SchemaCheck.describe(v.path()));
      if (v.property().equals("args") && v.path().equals(List.of("execNewPod"))) {
        String script = shellWithoutScript(map.get("command"));
        if (script != null) {
          ctx.report(e.key(), "argsScript", where, script);
        } else {
          ctx.report(e.key(), "args", where);
        }
        continue;
      }
      List<String> known = SchemaCheck.properties(v.schema());
      List<String> near = Spelling.nearestField(v.property(), known);
      List<String> children = near.isEmpty() ? Schema.HOOK.childrenDeclaring(v.schema(), v.property()) : List.of();
      if (!children.isEmpty()) {
        ctx.report(e.key(), "levelUp", v.property(), where,
            String.join(" or ", children.stream().map(c -> where + "." + c).toList()));
      } else if (near.isEmpty()) {
        ctx.report(e.key(), "unknown", v.property(), where, String.join(", ", known));
      } else {
        ctx.report(e.key(), "near", v.property(), where, String.join(" or ", near));
      }
    }
  }

  /** The command as a shell line when it ends in a shell's {@code -c}, which then has no script to run. */
  private static String shellWithoutScript(YNode command) {
    if (!(command instanceof YSeq seq) || seq.size() < 2) {
      return null;
    }
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < seq.size(); i++) {
      if (!(seq.get(i) instanceof YScalar s) || s.isTemplated()) {
        return null;
      }
      line.append(i == 0 ? "" : " ").append(s.value());
    }
    String first = ((YScalar) seq.get(0)).value();
    String program = first.substring(first.lastIndexOf('/') + 1);
    boolean endsInC = ((YScalar) seq.get(seq.size() - 1)).value().equals("-c");
    return SHELLS.contains(program) && endsInC ? line.toString() : null;
  }
}
