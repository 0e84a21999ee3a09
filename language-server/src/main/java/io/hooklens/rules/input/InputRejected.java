package io.hooklens.rules.input;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.yaml.ParseProblem;

@RuleInfo(
    id = "HL002",
    name = "input-rejected",
    summary = "The input was refused to protect the process: binary, not UTF-8, too large, too deep or an alias bomb",
    severity = Severity.ERROR,
    remediation = "Check that the file is the manifest you meant to lint; split very large files and remove"
        + " alias chains.",
    messages = @Message(id = "rejected", text = "{0}."))
public final class InputRejected implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    ParseProblems.report(doc, ctx, ParseProblem.Kind.LIMIT, "rejected");
  }
}
