package io.hooklens.lsp;

import io.hooklens.core.engine.Finding;
import io.hooklens.core.engine.Fix;
import io.hooklens.core.engine.Fixes;
import io.hooklens.core.engine.LintResult;
import io.hooklens.core.engine.TextEdit;
import io.hooklens.core.yaml.Position;
import io.hooklens.core.yaml.Range;
import io.hooklens.core.yaml.SourceText;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.lsp4j.CodeAction;
import org.eclipse.lsp4j.CodeActionKind;
import org.eclipse.lsp4j.CodeActionParams;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.SnippetTextEdit;
import org.eclipse.lsp4j.TextDocumentEdit;
import org.eclipse.lsp4j.VersionedTextDocumentIdentifier;
import org.eclipse.lsp4j.WorkspaceEdit;
import org.eclipse.lsp4j.jsonrpc.messages.Either;

/**
 * Code actions for the diagnostics a client sends back: the rules' fixes as quick fixes (the safe one
 * preferred), "Ignore HLxxx here" and "Ignore HLxxx in this file" as suppression comments, and
 * {@code source.fixAll.hooklens} with every safe fix. Diagnostics are matched to the findings of the
 * current text by rule id and range, so they need no data of their own.
 */
final class CodeActionsService {
  /** The kind of the fix-all action, under {@code source.fixAll} so that editors run it on save if asked. */
  static final String FIX_ALL = CodeActionKind.SourceFixAll + ".hooklens";

  /**
   * The reason a suppression action writes: a valid one (HL004 accepts it), and a placeholder the
   * author sees at once and replaces.
   */
  static final String REASON = "reason: ...";

  /** A line-level suppression alone on its line; group 1 is its list of rule ids. */
  private static final Pattern SUPPRESSION_ABOVE = Pattern.compile("^\\s*#\\s*hooklens:ignore[ \\t]+([^\\s#]+)");

  private final Analyzer analyzer;
  private final ConfigService configs;
  private final BooleanSupplier documentChanges;

  /**
   * @param documentChanges whether the client takes versioned document edits
   */
  CodeActionsService(Analyzer analyzer, ConfigService configs, BooleanSupplier documentChanges) {
    this.analyzer = analyzer;
    this.configs = configs;
    this.documentChanges = documentChanges;
  }

  /** The actions for a snapshot; none for files that get no diagnostics. */
  List<Either<org.eclipse.lsp4j.Command, CodeAction>> actions(TextDocument doc, CodeActionParams params) {
    Analyzer.Parsed parsed = analyzer.parse(doc);
    if (!parsed.kubernetesLike()) {
      return List.of();
    }
    return actions(doc, analyzer.lint(parsed, configs.configFor(doc.uri())), params, documentChanges.getAsBoolean());
  }

  private List<Either<org.eclipse.lsp4j.Command, CodeAction>> actions(TextDocument doc, LintResult result,
      CodeActionParams params, boolean documentChanges) {
    SourceText source = result.document().source();
    Positions positions = new Positions(source, doc.text());
    List<String> only = params.getContext() == null ? null : params.getContext().getOnly();
    List<Either<org.eclipse.lsp4j.Command, CodeAction>> out = new ArrayList<>();
    boolean json = ManifestFiles.isJson(ManifestFiles.lintName(doc));
    if (wants(only, CodeActionKind.QuickFix)) {
      List<Diagnostic> diagnostics = params.getContext() == null ? List.of() : params.getContext().getDiagnostics();
      for (Diagnostic d : diagnostics) {
        if (!DiagnosticConverter.SOURCE.equals(d.getSource()) || d.getCode() == null || !d.getCode().isLeft()) {
          continue;
        }
        for (Finding f : result.findings()) {
          if (f.ruleId().equals(d.getCode().getLeft()) && positions.range(f.range()).equals(d.getRange())) {
            quickFixes(doc, f, d, positions, source, json, documentChanges, out);
            break;
          }
        }
      }
    }
    // Only on request: editors that list every action would show it beside each quick fix.
    if (only != null && wants(only, FIX_ALL)) {
      Fixes.Applied all = Fixes.applySafe(doc.text(), result.findings());
      if (!all.fixed().isEmpty()) {
        List<TextEdit> edits = new ArrayList<>();
        all.fixed().forEach(f -> edits.addAll(f.safeFix().orElseThrow().edits()));
        CodeAction a = action("Fix all safe hooklens problems", FIX_ALL, doc, edits, positions, documentChanges);
        out.add(Either.forRight(a));
      }
    }
    return out;
  }

  /** Whether the client asked for this kind: no filter, or a filter that is the kind or a prefix of it. */
  private static boolean wants(List<String> only, String kind) {
    return only == null || only.isEmpty()
        || only.stream().anyMatch(k -> kind.equals(k) || kind.startsWith(k + "."));
  }

  private void quickFixes(TextDocument doc, Finding f, Diagnostic d, Positions positions, SourceText source,
      boolean json, boolean documentChanges, List<Either<org.eclipse.lsp4j.Command, CodeAction>> out) {
    for (Fix fix : f.fixes()) {
      CodeAction a = action(fix.title(), CodeActionKind.QuickFix, doc, fix.edits(), positions, documentChanges);
      a.setDiagnostics(List.of(d));
      a.setIsPreferred(fix.safe() ? Boolean.TRUE : null);
      out.add(Either.forRight(a));
    }
    if (json) {
      return; // JSON has no comments to suppress with
    }
    int line = f.range().start().line();
    String text = source.line(line);
    String indent = text.substring(0, text.length() - text.stripLeading().length());
    String eol = source.lineBreak();
    TextEdit here = new TextEdit(Range.at(line, 0),
        indent + "# hooklens:ignore " + f.ruleId() + " " + REASON + eol);
    // A suppression already alone above the line covers only the next line: extend its list instead.
    Matcher above = line > 0 ? SUPPRESSION_ABOVE.matcher(source.line(line - 1)) : null;
    if (above != null && above.find()) {
      String before = source.line(line - 1).substring(0, above.end(1));
      here = new TextEdit(Range.at(line - 1, before.codePointCount(0, before.length())), "," + f.ruleId());
    }
    CodeAction a = action("Ignore " + f.ruleId() + " here", CodeActionKind.QuickFix, doc, List.of(here), positions,
        documentChanges);
    a.setDiagnostics(List.of(d));
    out.add(Either.forRight(a));
    TextEdit file = new TextEdit(new Range(new Position(0, 0), new Position(0, 0)),
        "# hooklens:ignore-file " + f.ruleId() + " " + REASON + eol);
    CodeAction b = action("Ignore " + f.ruleId() + " in this file", CodeActionKind.QuickFix, doc, List.of(file),
        positions, documentChanges);
    b.setDiagnostics(List.of(d));
    out.add(Either.forRight(b));
  }

  private static CodeAction action(String title, String kind, TextDocument doc, List<TextEdit> edits,
      Positions positions, boolean documentChanges) {
    List<org.eclipse.lsp4j.TextEdit> lsp = edits.stream()
        .map(e -> new org.eclipse.lsp4j.TextEdit(positions.range(e.range()), e.newText())).toList();
    WorkspaceEdit edit = new WorkspaceEdit();
    if (documentChanges) {
      TextDocumentEdit change = new TextDocumentEdit(new VersionedTextDocumentIdentifier(doc.uri(), doc.version()),
          lsp.stream().map(Either::<org.eclipse.lsp4j.TextEdit, SnippetTextEdit>forLeft).toList());
      edit.setDocumentChanges(List.of(Either.forLeft(change)));
      edit.setChanges(null);
    } else {
      edit.setChanges(Map.of(doc.uri(), lsp));
    }
    CodeAction a = new CodeAction(Objects.requireNonNull(title));
    a.setKind(kind);
    a.setEdit(edit);
    return a;
  }
}
