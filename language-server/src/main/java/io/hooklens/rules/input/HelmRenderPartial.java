package io.hooklens.rules.input;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.yaml.ParseProblem;

@RuleInfo(
    id = "HL006",
    name = "helm-render-partial",
    summary = "Helm rendered the chart only in part, so its findings miss what the missing part installs",
    severity = Severity.INFO,
    remediation = "Vendor the chart's dependencies with helm dependency build, and give the values the chart"
        + " requires with --set or a ci/*-values.yaml file, so that Helm renders all of it.",
    messages = @Message(id = "partial", text = "The chart is linted as Helm rendered it in part: {0}"))
public final class HelmRenderPartial implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    ParseProblems.report(doc, ctx, ParseProblem.Kind.PARTIAL_RENDER, "partial");
  }
}
