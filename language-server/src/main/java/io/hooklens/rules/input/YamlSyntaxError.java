package io.hooklens.rules.input;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.yaml.ParseProblem;
import io.hooklens.core.yaml.TemplateMask;

@RuleInfo(
    id = "HL001",
    name = "yaml-syntax-error",
    summary = "The file is not well-formed YAML or JSON",
    severity = Severity.ERROR,
    remediation = "Fix the syntax at the reported position; the other documents of the file are still checked.",
    messages = {
        @Message(id = "syntax", text = "YAML syntax error: {0}; this document is not checked."),
        @Message(id = "template", text = "This template document is not YAML until it is rendered ({0}); it is"
            + " not checked. Lint the rendered chart to check it."),
        @Message(id = "notRendered", text = "This template document is not YAML until it is rendered ({0}); it is"
            + " not checked, since Helm could not render the chart (HL005 says why).")
    })
public final class YamlSyntaxError implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    if (!doc.parsed().templated()) {
      ParseProblems.report(doc, ctx, ParseProblem.Kind.SYNTAX, "syntax");
      return;
    }
    // Template control flow can give text that only its rendering makes YAML: not the author's error.
    for (ParseProblem p : doc.parsed().problems()) {
      if (p.kind() == ParseProblem.Kind.SYNTAX) {
        String why = p.message().replace(TemplateMask.PLACEHOLDER + "(" + (int) TemplateMask.PLACEHOLDER + ")",
            "a template action");
        ctx.report(p.range(), ctx.chartNotRendered() ? "notRendered" : "template", why).severity(Severity.INFO);
      }
    }
  }
}
