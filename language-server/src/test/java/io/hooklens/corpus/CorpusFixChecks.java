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
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Fixes on a corpus: for every file with fixes (chart templates linted one by one, actions
 * masked), all safe fixes applied together, and each editor-only fix on its own, must leave a file
 * that reads as well as before (no new parse problem, as many documents) and that a line diff, computed
 * independently of the fix code, shows changed only on lines the applied fixes name.
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
    for (String part : List.of("manifests", "openshift", "charts")) {
      Path dir = corpus().part(part);
      for (Path f : Corpus.files(dir)) {
        String name = dir.relativize(f).toString();
        String text = Files.readString(f, StandardCharsets.UTF_8);
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
    }
    assertTrue(safeFiles >= minFixes(), "the corpus has files with safe fixes: " + safeFiles);
    assertTrue(editorFixes >= minFixes(), "the corpus has editor-only fixes: " + editorFixes);
    assertEquals(List.of(), problems);
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
