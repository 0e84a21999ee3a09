package io.hooklens.rules.input;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.yaml.ParseProblem;

@RuleInfo(
    id = HelmRenderFailed.ID,
    name = "helm-render-failed",
    summary = "Helm cannot render the chart with a values set",
    severity = Severity.ERROR,
    remediation = "Fix the template or values file at the reported place; the message is Helm's own. Give"
        + " values the chart requires with --set or a ci/*-values.yaml file, and vendor dependencies with helm"
        + " dependency build.",
    messages = @Message(id = "failed", text = "Helm cannot render the chart with these values, so what it would"
        + " install with them is not checked: {0}"))
public final class HelmRenderFailed implements Rule {
  /** The id, for code that looks for this rule's findings without reading the annotation. */
  public static final String ID = "HL005";

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    ParseProblems.report(doc, ctx, ParseProblem.Kind.RENDER, "failed");
  }
}
