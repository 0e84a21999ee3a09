package io.hooklens.rules.input;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.yaml.ParseProblem;

@RuleInfo(
    id = "HL005",
    name = "helm-render-failed",
    summary = "Helm cannot render the chart with a values set",
    severity = Severity.ERROR,
    remediation = "Fix the template or values file at the reported place; the message is Helm's own. Give"
        + " values the chart requires with --set or a ci/*-values.yaml file, and vendor dependencies with helm"
        + " dependency build.",
    messages = @Message(id = "failed", text = "Helm cannot render the chart with these values, so what it would"
        + " install with them is not checked: {0}"))
public final class HelmRenderFailed implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    ParseProblems.report(doc, ctx, ParseProblem.Kind.RENDER, "failed");
  }
}
