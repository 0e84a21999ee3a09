package io.hooklens.rules.helm;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.engine.Targets;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.helm.DeletePolicy;
import io.hooklens.core.model.helm.HelmAnnotations;
import io.hooklens.core.model.helm.RegisteredHooks;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YScalar;
import java.util.List;
import java.util.Set;

@RuleInfo(
    id = "HL209",
    name = "helm-hook-not-recreatable",
    summary = "A hook's delete policies never remove it after success, so its next run meets the old object",
    severity = Severity.WARNING,
    fixable = true,
    remediation = "Add before-hook-creation to helm.sh/hook-delete-policy, or remove the annotation to get it as"
        + " the default.",
    messages = {
        @Message(id = "create", text = "Nothing deletes this {0} after a successful run (no before-hook-creation"
            + " or hook-succeeded policy), and uninstall leaves hook objects behind too. The next time the hook"
            + " runs the old object is still there, and {1} fails to create it."),
        @Message(id = "apply", text = "Nothing deletes this {0} after a successful run (no before-hook-creation"
            + " or hook-succeeded policy), and uninstall leaves hook objects behind too. The next time the hook"
            + " runs the old object is still there: {1} applies the hook over it with server-side apply, which"
            + " fails for a changed Job or Pod and does not run a finished one again."),
        @Message(id = "argo", text = "Nothing deletes this {0} after a successful sync (no before-hook-creation"
            + " or hook-succeeded policy). At the next sync the old object is still there: Argo CD applies the"
            + " hook over it, which fails for a changed Job or Pod and does not run a finished one again.")
    })
public final class HelmHookNotRecreatable implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    Targets targets = ctx.targets();
    for (Resource r : doc.resources()) {
      YMap.Entry e = HelmAnnotations.entry(r, HelmAnnotations.DELETE_POLICY);
      if (e == null || !(e.value() instanceof YScalar) || !RegisteredHooks.readByHelm(doc, r)
          || RegisteredHooks.events(r).isEmpty() || RegisteredHooks.identity(r) == null
          || "CustomResourceDefinition".equals(r.kind()) || removesItself(r)) {
        continue;
      }
      Set<String> policies;
      if (targets.argoCd()) {
        policies = ArgoCdHooks.runEvents(r).isEmpty() ? null : ArgoCdHooks.deletePolicies(r);
      } else {
        policies = RegisteredHooks.deletePolicies(r).orElse(null);
      }
      if (policies != null && !policies.contains(DeletePolicy.BEFORE_HOOK_CREATION.annotation())
          && !policies.contains(DeletePolicy.HOOK_SUCCEEDED.annotation())) {
        String id = targets.argoCd() ? "argo" : HookRunner.appliesServerSide(targets) ? "apply" : "create";
        // Not applied by --fix: the hook object is then deleted before each run, which is a change of behaviour.
        YScalar v = (YScalar) e.value();
        String separator = v.value().contains(", ") ? ", " : ",";
        ctx.report(FindingPlaces.valueOrKey(e), id, r.kind(), HookRunner.name(targets))
            .fix("Add before-hook-creation", false, v.value().isBlank() || v.isTemplated() ? List.of()
                : ctx.edits().appendToValue(v, separator + DeletePolicy.BEFORE_HOOK_CREATION.annotation()));
      }
    }
  }

  /** A Job with ttlSecondsAfterFinished is deleted by Kubernetes once it has finished. */
  private static boolean removesItself(Resource r) {
    YMap spec = r.root().map("spec");
    return "Job".equals(r.kind()) && spec != null && spec.has("ttlSecondsAfterFinished");
  }
}
