package io.hooklens.lsp;

import io.hooklens.app.DcMigration;
import io.hooklens.core.engine.Finding;
import io.hooklens.core.engine.Fix;
import io.hooklens.core.engine.Fixes;
import io.hooklens.core.engine.LintResult;
import io.hooklens.core.engine.TextEdit;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.openshift.DcHook;
import io.hooklens.core.yaml.Position;
import io.hooklens.core.yaml.Range;
import io.hooklens.core.yaml.SourceText;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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
 * {@code source.fixAll.hooklens} with every safe fix, and the migration of a DeploymentConfig to a Deployment. Diagnostics are matched to the findings of the
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
    List<Either<org.eclipse.lsp4j.Command, CodeAction>> out = new ArrayList<>(
        actions(doc, analyzer.lint(parsed, configs.configFor(doc.uri())), params, documentChanges.getAsBoolean()));
    List<String> only = params.getContext() == null ? null : params.getContext().getOnly();
    if (wants(only, CodeActionKind.RefactorRewrite) && params.getRange() != null) {
      migration(doc, parsed.model(), params.getRange().getStart().getLine(), documentChanges.getAsBoolean())
          .ifPresent(a -> out.add(Either.forRight(a)));
    }
    return out;
  }

  /**
   * "Migrate this DeploymentConfig to a Deployment" on a line of a DeploymentConfig, replacing the top-level
   * object holding it (the DC, or its List or Template) with what {@code hooklens migrate dc} writes for it.
   * From the object's first line to its last, so that comments before and after it and other documents stay.
   */
  private static Optional<CodeAction> migration(TextDocument doc, HookDocument model, int line,
      boolean documentChanges) {
    SourceText source = model.source();
    if (model.parsed().templated()) {
      return Optional.empty(); // a chart template: migrating would drop its templating
    }
    String text = source.text();
    Resource top = null;
    int from = 0;
    int to = 0;
    for (Resource r : model.resources()) {
      Range range = r.root().range();
      if (!DcHook.isDeploymentConfig(r) || line < range.startLine() || line > range.endLine()) {
        continue;
      }
      top = r;
      while (top.parent() != null) {
        top = top.parent();
      }
      int[] region = region(text, source, top.root().range());
      from = region[0];
      to = region[1];
      // The range of a mapping ends where the next token starts, so it may end on a comment: not the DC's.
      if (source.positionAt(from).line() <= line && line < source.positionAt(to).line()
          || to == text.length() && line == source.positionAt(to).line()) {
        break;
      }
      top = null;
    }
    if (top == null) {
      return Optional.empty();
    }
    boolean json = ManifestFiles.isJson(ManifestFiles.lintName(doc));
    DcMigration.Result result;
    try {
      String object = text.substring(from, to);
      result = json ? DcMigration.migrateJson(object) : DcMigration.migrate(object);
    } catch (DcMigration.BadInput e) {
      return Optional.empty();
    }
    if (result.migrated() == 0) {
      return Optional.empty();
    }
    String title = result.migrated() == 1 ? "Migrate this DeploymentConfig to a Deployment"
        : "Migrate the " + result.migrated() + " DeploymentConfigs of this " + top.kind() + " to Deployments";
    if (!result.leftOut().isEmpty()) {
      // A hook whose container is missing is no Job but a TODO note: the title says so before it is applied.
      title += " (" + result.leftOut().size() + " hook(s) left as TODO notes: " + String.join("; ", result.leftOut())
          + ")";
    }
    if (json && !result.notes().isEmpty()) {
      // JSON has no comments to carry them.
      title += " (" + result.notes().size() + " trade-offs JSON cannot hold: hooklens migrate dc lists them)";
    }
    String newText = result.text().replace("\n", source.lineBreak());
    TextEdit edit = new TextEdit(new Range(source.positionAt(from), source.positionAt(to)), newText);
    return Optional.of(action(title, CodeActionKind.RefactorRewrite, doc, List.of(edit),
        new Positions(source, doc.text()), documentChanges));
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

  /**
   * The offsets of an object's text: from its first line to the end of its last, without the comment lines
   * that the range of a block mapping takes in around it. Only lines blank or with # at column 0 are left
   * out: in an object at column 0 they cannot be the content of a block scalar.
   */
  private static int[] region(String text, SourceText source, Range range) {
    int from = source.offset(range.start());
    int to = source.offset(range.end());
    if (range.endColumn() > 0) {
      int eol = text.indexOf('\n', to);
      to = eol < 0 ? text.length() : eol + 1;
    }
    while (from < to && range.startColumn() == 0 && outside(text, from)) {
      int eol = text.indexOf('\n', from);
      from = eol < 0 ? to : eol + 1;
    }
    while (to > from && outside(text, text.lastIndexOf('\n', to - 2) + 1)) {
      to = text.lastIndexOf('\n', to - 2) + 1;
    }
    return new int[] {from, to};
  }

  /** Whether the line at {@code start} is blank or a comment at column 0. */
  private static boolean outside(String text, int start) {
    int eol = text.indexOf('\n', start);
    String line = text.substring(start, eol < 0 ? text.length() : eol);
    return line.isBlank() || line.startsWith("#");
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
