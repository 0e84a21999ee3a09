package io.hooklens.rules.helm;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.helm.DeletePolicy;
import io.hooklens.core.model.helm.HelmAnnotations;
import io.hooklens.core.model.helm.HelmHook;
import io.hooklens.core.yaml.YScalar;
import java.util.List;
import java.util.Locale;

@RuleInfo(
    id = "HL218",
    name = "helm-hook-keep-ignored",
    summary = "A hook with resource-policy keep is still deleted by its hook delete policy",
    severity = Severity.WARNING,
    remediation = "Decide which you mean: to keep the object, make it an ordinary release resource (drop"
        + " helm.sh/hook), where keep works; to have it replaced on each run, drop helm.sh/resource-policy.",
    messages = {
        @Message(id = "explicit", text = "resource-policy keep does not apply to hook delete policies; Helm still"
            + " deletes this hook object {0}."),
        @Message(id = "implicit", text = "resource-policy keep does not apply to hook delete policies; with no"
            + " helm.sh/hook-delete-policy, Helm applies before-hook-creation and deletes this object each time the"
            + " hook runs again.")
    })
public final class HelmHookKeepIgnored implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (HelmHook h : HelmHook.in(doc)) {
      YScalar keep = HelmAnnotations.annotation(h.resource(), HelmAnnotations.RESOURCE_POLICY);
      // Helm never deletes a CustomResourceDefinition hook, whatever its policy.
      if (keep == null || !keep.value().trim().toLowerCase(Locale.ROOT).equals(HelmAnnotations.KEEP)
          || h.kind().equals("CustomResourceDefinition")) {
        continue;
      }
      List<DeletePolicy> policies = h.deletePolicies();
      if (policies == null) {
        continue;
      }
      // hook-failed alone removes only a hook that failed: what succeeded stays, as keep asks.
      List<DeletePolicy> deleting = policies.stream().filter(p -> p != DeletePolicy.HOOK_FAILED).toList();
      if (deleting.isEmpty()) {
        continue;
      }
      YScalar written = h.deletePolicyValue();
      if (written == null) {
        ctx.report(keep, "implicit");
      } else {
        List<String> when = deleting.stream().map(HelmHookKeepIgnored::when).toList();
        ctx.report(keep, "explicit", String.join(" and ", when)).related(written, "the delete policy");
      }
    }
  }

  private static String when(DeletePolicy policy) {
    return policy == DeletePolicy.BEFORE_HOOK_CREATION
        ? "before the hook runs again (before-hook-creation)"
        : "once the event's hooks succeed (hook-succeeded)";
  }
}
