package io.hooklens.core.engine;

import io.hooklens.core.yaml.ParseProblem;
import io.hooklens.core.yaml.ParsedFile;
import io.hooklens.core.yaml.Position;
import io.hooklens.core.yaml.Range;
import io.hooklens.core.yaml.SourceText;
import java.util.List;

/**
 * What must hold of any lint and any fix, whatever the input: the fuzz targets' oracle. A violation throws
 * an {@link AssertionError} naming the broken property, which Jazzer reports as a finding with its input.
 */
public final class LintInvariants {
  private LintInvariants() {}

  /**
   * A lint's result is complete and every place it names is in the text: no rule failed, each finding
   * names a registered rule and says something, its range, related places and fix edits lie inside the
   * text the engine read, on code point boundaries, and a fix writes every character it adds visibly: no
   * character that YAML refuses raw or that hides in the text.
   */
  public static void check(LintResult result, RuleRegistry registry) {
    if (!result.failures().isEmpty()) {
      LintResult.RuleFailure f = result.failures().get(0);
      throw new AssertionError("rule " + f.ruleId() + " failed", f.error());
    }
    SourceText source = result.document().parsed().source();
    check(result.document().parsed());
    for (Finding f : result.findings()) {
      String what = f.ruleId() + " " + f.range();
      if (registry.find(f.ruleId()).isEmpty()) {
        throw new AssertionError("finding of an unknown rule: " + what);
      }
      if (f.message() == null || f.message().isBlank()) {
        throw new AssertionError("finding without a message: " + what);
      }
      inside(source, f.range(), what);
      for (Finding.Related r : f.related()) {
        inside(source, r.range(), what + " related " + r.message());
      }
      if (f.fixes().stream().filter(Fix::safe).count() > 1) {
        throw new AssertionError("more than one safe fix: " + what);
      }
      for (Fix fix : f.fixes()) {
        for (TextEdit e : fix.edits()) {
          inside(source, e.range(), what + " fix " + fix.title());
          e.newText().codePoints().filter(c -> c != '\n' && c != '\r' && Edits.escaped(c)).findFirst()
              .ifPresent(c -> {
                throw new AssertionError(String.format("fix %s writes U+%04X raw: %s", fix.title(), c, what));
              });
        }
      }
    }
  }

  /** Every parse problem lies inside the text. */
  public static void check(ParsedFile parsed) {
    for (ParseProblem p : parsed.problems()) {
      inside(parsed.source(), p.range(), "problem " + p.kind() + " " + p.message());
    }
  }

  /**
   * A range is ordered, its lines exist, its columns are at most the length of their line in code points, and
   * its UTF-16 offsets do not split a surrogate pair.
   */
  public static void inside(SourceText source, Range range, String what) {
    if (range.start().compareTo(range.end()) > 0) {
      throw new AssertionError("range ends before it starts: " + what);
    }
    for (Position p : List.of(range.start(), range.end())) {
      if (p.line() < 0 || p.line() >= source.lineCount()) {
        throw new AssertionError("line " + p.line() + " of " + source.lineCount() + ": " + what);
      }
      String line = source.line(p.line());
      int codePoints = line.codePointCount(0, line.length());
      if (p.column() < 0 || p.column() > codePoints) {
        throw new AssertionError("column " + p.column() + " of a line of " + codePoints + " code points: " + what);
      }
      int offset = source.offset(p);
      String text = source.text();
      if (offset > 0 && offset < text.length() && Character.isHighSurrogate(text.charAt(offset - 1))
          && Character.isLowSurrogate(text.charAt(offset))) {
        throw new AssertionError("offset " + offset + " splits a surrogate pair: " + what);
      }
    }
  }

  /**
   * {@code lint --fix} on a text: the engine's fix loop, then the properties a user relies on. Its result is
   * the lint of the fixed text and holds {@link #check}; text that read without syntax errors still does, with
   * no fewer documents; and fixing the fixed text again changes nothing.
   */
  public static Fixes.Outcome checkFix(Linter linter, String name, String text) {
    LintResult before = linter.lint(name, text, Config.DEFAULT);
    check(before, linter.registry());
    Fixes.Outcome outcome = Fixes.fixSafe(linter, name, text, Config.DEFAULT, before);
    check(outcome.result(), linter.registry());
    ParsedFile in = before.document().parsed();
    ParsedFile out = outcome.result().document().parsed();
    if (syntaxErrors(out) > syntaxErrors(in) || out.documents().size() < in.documents().size()) {
      throw new AssertionError("the fixed text reads worse: " + out.problems() + " in\n" + outcome.text());
    }
    if (outcome.fixed() > 0) {
      // The outcome's result is the lint of its text, where a second --fix starts.
      Fixes.Outcome again = Fixes.fixSafe(linter, name, outcome.text(), Config.DEFAULT, outcome.result());
      if (!again.text().equals(outcome.text())) {
        throw new AssertionError("fixing twice changes the text again:\n" + outcome.text() + "\n=>\n" + again.text());
      }
    }
    return outcome;
  }

  private static long syntaxErrors(ParsedFile parsed) {
    return parsed.problems().stream().filter(p -> p.kind() == ParseProblem.Kind.SYNTAX).count();
  }
}
