package io.hooklens.lsp;

import io.hooklens.app.LintedFile;
import io.hooklens.core.engine.Finding;
import io.hooklens.core.engine.LintResult;
import io.hooklens.core.engine.Linter;
import io.hooklens.core.yaml.SourceText;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.lsp4j.Diagnostic;

/**
 * A file's findings from the application's lint (a chart's render, or a workspace lint) as diagnostics on the
 * file's text on disk: each finding named with the values sets that produce it, as {@code hooklens lint} prints
 * it, and a word on the rules that failed.
 */
final class LintedDiagnostics {
  private final DiagnosticConverter converter;
  private final ClientLog log;

  LintedDiagnostics(DiagnosticConverter converter, ClientLog log) {
    this.converter = converter;
    this.log = log;
  }

  /**
   * A linted file's text as the linter read it, which its findings' places are in; none for a file the linter
   * refuses (UTF-16, binary), whose one finding says so at its start.
   */
  static String shownText(Path file) throws IOException {
    Linter.Decoded d = Linter.decode(Files.readAllBytes(file));
    return d.refused() ? "" : d.text();
  }

  /** The positions in another file of the chart, as on disk; null when it cannot be read. */
  private static Positions positionsOf(String file) {
    try {
      String text = shownText(Path.of(file));
      return new Positions(new SourceText(text), text);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * One file's diagnostics in {@code text}, the file as read again.
   *
   * @param chart the chart whose render found them, or null for a file linted on its own
   */
  List<Diagnostic> of(LintedFile f, String uri, String text, Path chart) {
    Positions positions = new Positions(f.result().document().source(), text);
    List<Finding> findings = new ArrayList<>();
    for (Finding x : f.result().findings()) {
      List<String> sets = f.valuesSets().getOrDefault(x, List.of());
      // A file linted on its own has no values sets to name.
      String message = sets.isEmpty() ? x.message() : x.message() + " [values: " + String.join(", ", sets) + "]";
      findings.add(new Finding(x.ruleId(), x.ruleName(), x.severity(), message, x.range(), x.document(),
          x.resource(), x.related()));
    }
    Map<String, Positions> others = new HashMap<>();
    List<Diagnostic> out = new ArrayList<>(converter.convert(uri, findings, positions,
        file -> others.computeIfAbsent(file, LintedDiagnostics::positionsOf)));
    List<LintResult.RuleFailure> failures = f.result().failures();
    if (!failures.isEmpty()) {
      String where = chart == null ? f.displayName() : "the rendered chart " + chart;
      for (LintResult.RuleFailure x : failures) {
        log.error("rule " + x.ruleId() + " failed on " + where + "; its findings are left out", x.error());
      }
      out.add(DiagnosticsService.notChecked(DiagnosticsService.rulesFailed(failures,
          chart == null ? "this file" : "this chart")));
    }
    return out;
  }
}
