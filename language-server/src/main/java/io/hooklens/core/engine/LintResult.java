package io.hooklens.core.engine;

import io.hooklens.core.model.HookDocument;
import java.util.List;

/**
 * The outcome of linting one file.
 *
 * @param findings reported findings, sorted by position; suppressed ones are left out
 * @param suppressed how many findings suppression comments or annotations removed
 * @param failures rules that threw; their findings for this file are lost, the others stand
 */
public record LintResult(HookDocument document, List<Finding> findings, int suppressed,
    List<RuleFailure> failures) {

  /** A rule that threw on a file: an internal error of ours, never the user's. */
  public record RuleFailure(String ruleId, Throwable error) {}
}
