package io.hooklens.rules.input;

import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.yaml.ParseProblem;

/** Reports the reader's problems of one kind; shared by the input rules. */
final class ParseProblems {
  private ParseProblems() {}

  static void report(HookDocument doc, RuleContext ctx, ParseProblem.Kind kind, String messageId) {
    for (ParseProblem p : doc.parsed().problems()) {
      if (p.kind() == kind) {
        ctx.report(p.range(), messageId, p.message());
      }
    }
  }
}
