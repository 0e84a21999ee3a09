package io.hooklens.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.core.engine.Config;
import io.hooklens.core.engine.Finding;
import io.hooklens.core.engine.LintResult;
import io.hooklens.core.engine.Linter;
import io.hooklens.rules.BuiltInRules;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Lints a corpus file by file. Nothing may fail inside Hooklens anywhere, the findings on
 * {@code manifests/} and {@code openshift/} must equal the corpus's reviewed snapshots, and the mistakes
 * known to be in it must be found.
 */
abstract class CorpusLintChecks {
  private static final Linter LINTER = new Linter(BuiltInRules.registry());

  abstract Corpus corpus();

  /** At least this many chart files, so that a missing folder cannot pass. */
  abstract int minChartFiles();

  /** Mistakes known to be in the corpus: a file name, then the rule that must report it. */
  abstract List<String> known();

  private static String lintToSnapshot(Path dir) throws IOException {
    StringBuilder sb = new StringBuilder();
    List<String> failures = new ArrayList<>();
    for (Path f : Corpus.files(dir)) {
      String name = dir.relativize(f).toString();
      LintResult r = LINTER.lint(name, Files.readAllBytes(f), Config.DEFAULT);
      r.failures().forEach(x -> failures.add(name + ": " + x.ruleId() + ": " + x.error()));
      for (Finding x : r.findings()) {
        sb.append(name).append(':').append(x.range().start().line() + 1).append(':')
            .append(x.range().start().column() + 1).append(' ').append(x.ruleId()).append(' ')
            .append(x.severity().label()).append(' ').append(x.message()).append('\n');
      }
    }
    assertEquals(List.of(), failures, "internal errors on the corpus");
    return sb.toString();
  }

  private void compare(String part) throws IOException {
    Corpus corpus = corpus();
    String actual = lintToSnapshot(corpus.part(part));
    assertEquals(corpus.expected(part, actual), actual,
        "findings on " + corpus.name() + "/" + part + " changed; review, then update " + corpus.snapshot(part));
  }

  @Test
  void manifestsMatchTheReviewedSnapshot() throws IOException {
    compare("manifests");
  }

  @Test
  void openshiftMatchesTheReviewedSnapshot() throws IOException {
    compare("openshift");
  }

  @Test
  void everyChartFileLintsWithoutInternalErrors() throws IOException {
    List<Path> files = Corpus.files(corpus().part("charts"));
    assertTrue(files.size() >= minChartFiles(), "the chart corpus is there: " + files.size() + " files");
    lintToSnapshot(corpus().part("charts"));
  }

  @Test
  void knownMistakesAreFound() throws IOException {
    String manifests = lintToSnapshot(corpus().part("manifests")) + lintToSnapshot(corpus().part("openshift"));
    for (String expected : known()) {
      String file = expected.split(" ")[0];
      String rule = expected.split(" ")[1];
      assertTrue(manifests.lines().anyMatch(l -> l.startsWith(file + ":") && l.contains(" " + rule + " ")),
          "not found: " + expected);
    }
  }
}
