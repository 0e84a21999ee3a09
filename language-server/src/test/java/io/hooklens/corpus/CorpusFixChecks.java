package io.hooklens.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.difflib.DiffUtils;
import com.github.difflib.patch.AbstractDelta;
import com.github.difflib.patch.DeltaType;
import io.hooklens.core.engine.Config;
import io.hooklens.core.engine.Finding;
import io.hooklens.core.engine.Fix;
import io.hooklens.core.engine.Fixes;
import io.hooklens.core.engine.LintResult;
import io.hooklens.core.engine.Linter;
import io.hooklens.rules.BuiltInRules;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Fixes on a corpus: for every file with fixes (chart templates linted one by one, actions
 * masked), all safe fixes applied together, and each editor-only fix on its own, must leave a file
 * that reads as well as before (no new parse problem, as many documents) and that a line diff, computed
 * independently of the fix code, shows changed only on lines the applied fixes name. And {@code --fix}
 * must add no finding and settle: fixing its result again changes nothing.
 */
abstract class CorpusFixChecks {
  private static final Linter LINTER = new Linter(BuiltInRules.registry());

  abstract Corpus corpus();

  /** At least this many files with safe fixes, and as many editor-only fixes, so that the test checks something. */
  abstract int minFixes();

  @Test
  void fixesChangeOnlyTheLinesTheyNameAndKeepFilesReadable() throws IOException {
    List<String> problems = new ArrayList<>();
    int safeFiles = 0;
    int editorFixes = 0;
    for (Source source : sources()) {
      String name = source.name();
      String text = source.text();
      LintResult before = LINTER.lint(name, text, Config.DEFAULT);
      Fixes.Applied safe = Fixes.applySafe(text, before.findings());
      if (!safe.fixed().isEmpty()) {
        safeFiles++;
        Set<Integer> lines = new TreeSet<>();
        safe.fixed().forEach(x -> lines.addAll(x.safeFix().orElseThrow().lines()));
        check(name + " (safe fixes)", text, safe.text(), lines, before, problems);
      }
      for (Finding x : before.findings()) {
        for (Fix fix : x.fixes()) {
          if (!fix.safe()) {
            editorFixes++;
            check(name + " (" + fix.title() + ")", text, Fixes.apply(text, List.of(fix)), fix.lines(), before,
                problems);
          }
        }
      }
    }
    assertTrue(safeFiles >= minFixes(), "the corpus has files with safe fixes: " + safeFiles);
    assertTrue(editorFixes >= minFixes(), "the corpus has editor-only fixes: " + editorFixes);
    assertEquals(List.of(), problems);
  }

  /**
   * A safe fix is applied without review, so it must resolve what it names and nothing else: after
   * {@code --fix} no finding may be there that was not there before (compared by rule, object and message,
   * as fixes move positions), and fixing the result again must change nothing.
   */
  @Test
  void safeFixesAddNoFindingAndSettle() throws IOException {
    List<String> problems = new ArrayList<>();
    int fixedFiles = 0;
    for (Source source : sources()) {
      String name = source.name();
      String text = source.text();
      Fixes.Outcome once = Fixes.fixSafe(LINTER, name, text, Config.DEFAULT);
      if (once.fixed() == 0) {
        continue;
      }
      fixedFiles++;
      Map<String, Long> before = keys(LINTER.lint(name, text, Config.DEFAULT));
      keys(once.result()).forEach((key, count) -> {
        if (count > before.getOrDefault(key, 0L)) {
          problems.add(name + ": the safe fixes add " + key);
        }
      });
      Fixes.Outcome twice = Fixes.fixSafe(LINTER, name, once.text(), Config.DEFAULT);
      if (twice.fixed() != 0 || !twice.text().equals(once.text())) {
        problems.add(name + ": fixing again changes " + twice.fixed() + " more");
      }
    }
    assertTrue(fixedFiles >= minFixes(), "the corpus has files with safe fixes: " + fixedFiles);
    assertEquals(List.of(), problems);
  }

  /** A corpus file: its name within its part, and its text. */
  private record Source(String name, String text) {}

  /** Every file of the corpus's parts; chart templates are linted one by one, their actions masked. */
  private List<Source> sources() throws IOException {
    List<Source> out = new ArrayList<>();
    for (String part : List.of("manifests", "openshift", "charts")) {
      Path dir = corpus().part(part);
      for (Path f : Corpus.files(dir)) {
        out.add(new Source(dir.relativize(f).toString(), Files.readString(f, StandardCharsets.UTF_8)));
      }
    }
    return out;
  }

  /** Findings by what stays when a fix moves text: rule, object and message, with how often each occurs. */
  private static Map<String, Long> keys(LintResult result) {
    return result.findings().stream().collect(Collectors.groupingBy(
        x -> x.ruleId() + " on " + x.resource() + ": " + x.message(), TreeMap::new, Collectors.counting()));
  }

  private static void check(String what, String text, String fixed, Set<Integer> named, LintResult before,
      List<String> problems) {
    LintResult after = LINTER.lint(what, fixed, Config.DEFAULT);
    if (after.document().parsed().problems().size() > before.document().parsed().problems().size()
        || after.document().parsed().documents().size() != before.document().parsed().documents().size()) {
      problems.add(what + ": reads worse after the fix: " + after.document().parsed().problems());
    }
    if (fixed.equals(text)) {
      problems.add(what + ": the fix changes nothing");
    }
    List<String> a = List.of(text.split("\r?\n|\r", -1));
    List<String> b = List.of(fixed.split("\r?\n|\r", -1));
    for (AbstractDelta<String> d : DiffUtils.diff(a, b).getDeltas()) {
      int at = d.getSource().getPosition();
      boolean ok = d.getType() == DeltaType.INSERT
          ? named.contains(at) || named.contains(at - 1)
          : java.util.stream.IntStream.range(at, at + d.getSource().size()).allMatch(named::contains);
      if (!ok) {
        problems.add(what + ": changed line " + (at + 1) + " (" + d.getType() + "), named lines " + named);
      }
    }
  }
}
