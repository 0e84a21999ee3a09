package io.hooklens.rules.input;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.yaml.ParseProblem;

@RuleInfo(
    id = "HL003",
    name = "duplicate-key",
    summary = "A mapping repeats a key",
    severity = Severity.WARNING,
    remediation = "Keep one occurrence of the key and merge the values you meant.",
    messages = @Message(id = "duplicate", text = "{0}."))
public final class DuplicateKey implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    ParseProblems.report(doc, ctx, ParseProblem.Kind.DUPLICATE_KEY, "duplicate");
  }
}
