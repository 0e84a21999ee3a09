package io.hooklens.rules.helm;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.helm.HelmEvent;
import io.hooklens.core.model.helm.HelmHook;
import java.util.List;

@RuleInfo(
    id = "HL224",
    name = "helm-hook-test-mixed",
    summary = "A test hook also lists install, upgrade, rollback or delete events",
    severity = Severity.INFO,
    remediation = "Split the resource in two: one with helm.sh/hook: test, one for the other events.",
    messages = {
        @Message(id = "mixed", text = "This test resource also runs as a {0} hook, not only under helm test."),
        @Message(id = "mixedArgo", text = "Argo CD never runs test hooks: this test resource runs only as a {0} hook,"
            + " in Argo CD's {1}.")
    })
public final class HelmHookTestMixed implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (HelmHook h : HelmHook.in(doc)) {
      if (!h.events().contains(HelmEvent.TEST)) {
        continue;
      }
      if (ctx.targets().argoCd()) {
        List<String> run = ArgoCdHooks.runEvents(h.resource());
        if (!run.isEmpty()) {
          List<String> phases = ArgoCdHooks.phases(run);
          ctx.report(h.hookValue(), "mixedArgo", String.join(", ", run),
              String.join(" and ", phases) + (phases.size() == 1 ? " phase" : " phases"));
        }
        continue;
      }
      List<String> others = h.events().stream().filter(e -> e != HelmEvent.TEST).distinct().map(HelmEvent::annotation)
          .toList();
      if (!others.isEmpty()) {
        ctx.report(h.hookValue(), "mixed", String.join(", ", others));
      }
    }
  }
}
