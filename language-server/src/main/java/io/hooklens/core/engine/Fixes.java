package io.hooklens.core.engine;

import io.hooklens.core.yaml.ParsedFile;
import io.hooklens.core.yaml.SourceText;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Applies fixes to text: pure, for {@code hooklens lint --fix}, editors' fix-all and tests. */
public final class Fixes {
  private Fixes() {}

  /**
   * Text after fixes, and the findings whose fix went in.
   *
   * @param edits the edits applied, in offsets of the text they were applied to
   */
  public record Applied(String text, List<Finding> fixed, List<OffsetEdit> edits) {}

  /** An edit located by UTF-16 offsets of the whole text, a byte-order mark included. */
  public record OffsetEdit(int start, int end, String newText) {}

  /**
   * Applies the safe fix of each finding, skipping a fix that overlaps or touches one applied before
   * it (they edit the same value; linting the result again finds what is left).
   */
  public static Applied applySafe(String text, List<Finding> findings) {
    List<Finding> withFix = findings.stream().filter(f -> f.safeFix().isPresent()).toList();
    Result r = applyAll(text, withFix.stream().map(f -> f.safeFix().orElseThrow()).toList());
    List<Finding> fixed = r.applied().stream().map(withFix::get).toList();
    return new Applied(r.text(), fixed, r.edits());
  }

  /** Text after {@link #fixSafe}, how many findings its fixes resolved, and the lint of that text. */
  public record Outcome(String text, int fixed, LintResult result) {}

  /** Passes of {@link #fixSafe}: each lints once more, and fixes that touch wait for the next pass. */
  public static final int MAX_PASSES = 10;

  /**
   * Lints text, applies the safe fixes, and repeats on the result until nothing safe is left or after
   * {@link #MAX_PASSES}. A pass whose result reads worse than its input (more parse problems, fewer
   * documents) is dropped and ends the loop, so a faulty fix can never break a file.
   */
  public static Outcome fixSafe(Linter linter, String name, String text, Config config) {
    return fixSafe(linter, name, text, config, linter.lint(name, text, config));
  }

  /** {@link #fixSafe} from a lint of the text already made, so that a caller who checked it lints once less. */
  static Outcome fixSafe(Linter linter, String name, String text, Config config, LintResult linted) {
    LintResult result = linted;
    String current = text;
    int fixed = 0;
    for (int pass = 0; pass < MAX_PASSES; pass++) {
      Applied applied = applySafe(current, result.findings());
      if (applied.fixed().isEmpty() || applied.text().equals(current)) {
        break;
      }
      LintResult next = linter.lint(name, applied.text(), config);
      if (readsWorse(next, result)) {
        break;
      }
      current = applied.text();
      result = next;
      fixed += applied.fixed().size();
    }
    return new Outcome(current, fixed, result);
  }

  private static boolean readsWorse(LintResult after, LintResult before) {
    ParsedFile a = after.document().parsed();
    ParsedFile b = before.document().parsed();
    return a.problems().size() > b.problems().size() || a.documents().size() < b.documents().size();
  }

  /** Applies fixes in order, each unless it clashes with one applied before it. */
  public static String apply(String text, List<Fix> fixes) {
    return applyAll(text, fixes).text();
  }

  private record Result(String text, List<Integer> applied, List<OffsetEdit> edits) {}

  private static Result applyAll(String text, List<Fix> fixes) {
    SourceText source = new SourceText(text);
    int shift = text.startsWith("\uFEFF") ? 1 : 0;
    List<OffsetEdit> accepted = new ArrayList<>();
    List<Integer> applied = new ArrayList<>();
    for (int i = 0; i < fixes.size(); i++) {
      List<OffsetEdit> edits = new ArrayList<>();
      for (TextEdit e : fixes.get(i).edits()) {
        edits.add(new OffsetEdit(source.offset(e.range().start()) + shift, source.offset(e.range().end()) + shift,
            e.newText()));
      }
      if (edits.stream().anyMatch(e -> accepted.stream().anyMatch(a -> clash(a, e)))
          || edits.stream().anyMatch(e -> edits.stream().anyMatch(o -> o != e && clash(o, e)))) {
        continue;
      }
      accepted.addAll(edits);
      applied.add(i);
    }
    List<OffsetEdit> ordered = new ArrayList<>(accepted);
    ordered.sort(Comparator.comparingInt(OffsetEdit::start).reversed());
    StringBuilder sb = new StringBuilder(text);
    for (OffsetEdit e : ordered) {
      sb.replace(e.start(), e.end(), e.newText());
    }
    ordered.sort(Comparator.comparingInt(OffsetEdit::start));
    return new Result(sb.toString(), List.copyOf(applied), List.copyOf(ordered));
  }

  /** Two edits clash when they overlap or meet: the order of the results would be a guess. */
  private static boolean clash(OffsetEdit a, OffsetEdit b) {
    return a.start() <= b.end() && b.start() <= a.end();
  }
}
