package io.hooklens.lsp;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.hooklens.core.engine.Config;
import io.hooklens.core.engine.LintInvariants;
import io.hooklens.core.engine.LintResult;
import io.hooklens.core.engine.Linter;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.yaml.ParseProblem;
import io.hooklens.core.yaml.ParsedFile;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YScalar;
import io.hooklens.core.yaml.YamlDocument;
import io.hooklens.rules.BuiltInRules;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.TextDocumentContentChangeEvent;

/**
 * The language server's document model under random edit sequences: each {@code didChange} is applied to a
 * {@link TextDocument} snapshot as the server applies it, read by the {@link Analyzer} reusing the previous
 * version's YAML documents, and compared with a fresh read and lint of the same text: the same documents node
 * for node, the same problems and findings, and diagnostics whose ranges are UTF-16 positions of the client's
 * text.
 */
class IncrementalEditFuzzTest {
  private static final Linter LINTER = new Linter(BuiltInRules.registry());
  private static final DiagnosticConverter CONVERTER = new DiagnosticConverter(LINTER.registry());
  private static final String URI = "file:///work/hooks.yaml";
  /** The name the server lints the document under: the same for every version, so worked out once. */
  private static final String NAME = ManifestFiles.lintName(new TextDocument(URI, "yaml", 0, ""));

  /** Texts an editing session starts from: several documents of hooks, CRLF, astral characters, nothing. */
  private static final String[] STARTS = {"", """
      apiVersion: v1
      kind: Pod
      metadata: {name: web}
      spec:
        terminationGracePeriodSeconds: 5
        containers:
          - name: web
            lifecycle:
              preStop:
                exec: {command: [sh, -c, sleep 30]}
      --- # a Helm hook with a typo in its event
      kind: Job
      apiVersion: batch/v1
      metadata: {name: migrate, annotations: {helm.sh/hook: pre-instal, helm.sh/hook-weight: "1.5"}}
      spec: {template: {spec: {restartPolicy: Never, containers: [{name: m, image: busybox}]}}}
      ---
      kind: DeploymentConfig
      apiVersion: apps.openshift.io/v1
      metadata: {name: dc}
      spec:
        strategy:
          recreateParams:
            pre: {failurePolicy: Abort, execNewPod: {containerName: nope, command: [true]}}
          type: Recreate
        template: {spec: {containers: [{name: app, image: app}]}}
      """, "apiVersion: v1\r\nkind: Pod\r\nmetadata:\r\n  name: \uD83D\uDE80\u2705\r\nspec:\r\n  containers:\r\n"
      + "    - name: a\r\n      lifecycle:\r\n        postStart: {httpGet: {port: http}}\r\n---\r\nkind: Pod\r\n"};
  private static final String[] INSERTS = {"x", "7", "\n", "\r\n", "\r", "---\n", "--- ", "...\n", "%YAML 1.2\n",
      "- ", ": ", "\"", "'", "[", "{", "}", "&a ", "*a", "<<: *a\n", "  ", "\t", "# hooklens:ignore HL105 why\n",
      "|\n", "kind: Job\n", "helm.sh/hook: post-install\n", "a: 1\na: 2\n", "\uD83D\uDE80", "\uD83D", "\uDE80",
      "\uFEFF", "{{ .Values.x }}", "\u2028", ""};

  @FuzzTest(maxDuration = "30s")
  void edits(FuzzedDataProvider data) {
    Analyzer analyzer = new Analyzer(LINTER);
    TextDocument doc = new TextDocument(URI, "yaml", 0, data.pickValue(STARTS));
    Analyzer.Parsed parsed = analyzer.parse(doc);
    for (int version = 1; version <= 20 && data.remainingBytes() > 0; version++) {
      List<TextDocumentContentChangeEvent> changes = new ArrayList<>();
      String expected = doc.text();
      for (int n = data.consumeInt(1, 3); n > 0; n--) {
        String inserted = data.consumeBoolean() ? data.pickValue(INSERTS) : data.consumeString(6);
        switch (data.consumeInt(0, 9)) {
          case 0 -> {
            changes.add(new TextDocumentContentChangeEvent(inserted));
            expected = inserted;
          }
          case 1 -> {
            // Any position, past the ends of lines and of the text included: the server clamps as LSP says.
            Position start = new Position(data.consumeInt(0, 60), data.consumeInt(0, 120));
            Position end = new Position(data.consumeInt(start.getLine(), 60), data.consumeInt(0, 120));
            changes.add(new TextDocumentContentChangeEvent(new Range(start, end), inserted));
            expected = null;
          }
          default -> {
            String current = expected != null ? expected : doc.apply(version, changes).text();
            int start = outsideCrLf(current, data.consumeInt(0, current.length()));
            int to = data.consumeInt(start, Math.min(current.length(), start + 40));
            int end = Math.max(start, outsideCrLf(current, to));
            changes.add(new TextDocumentContentChangeEvent(new Range(position(current, start), position(current, end)),
                inserted));
            expected = current.substring(0, start) + inserted + current.substring(end);
          }
        }
      }
      doc = doc.apply(version, changes);
      if (expected != null && !expected.equals(doc.text())) {
        throw new AssertionError("the edits give\n" + doc.text() + "\ninstead of\n" + expected);
      }
      parsed = analyzer.parse(doc);
      compareReads(doc, parsed);
    }
    // The rules see what the reads gave, so the findings are compared once, for the last version.
    compareFindings(doc, parsed, analyzer);
  }

  private static void compareReads(TextDocument doc, Analyzer.Parsed incremental) {
    String fresh = describe(LINTER.parse(NAME, doc.text()).parsed());
    String reread = describe(incremental.model().parsed());
    if (!fresh.equals(reread)) {
      throw new AssertionError("read incrementally:\n" + reread + "\nread afresh:\n" + fresh);
    }
  }

  private static void compareFindings(TextDocument doc, Analyzer.Parsed incremental, Analyzer analyzer) {
    HookDocument fresh = LINTER.parse(NAME, doc.text());
    LintResult result = analyzer.lint(incremental, Config.DEFAULT);
    LintInvariants.check(result, LINTER.registry());
    if (!result.findings().equals(LINTER.lint(fresh, Config.DEFAULT).findings())) {
      throw new AssertionError("findings differ from a fresh lint's in\n" + doc.text());
    }
    Positions positions = new Positions(incremental.model().parsed().source(), doc.text());
    for (Diagnostic d : CONVERTER.convert(URI, result.findings(), positions)) {
      onText(doc.text(), d.getRange().getStart(), d);
      onText(doc.text(), d.getRange().getEnd(), d);
    }
  }

  /** An LSP position names a line of the client's text and a UTF-16 column within it, not inside a pair. */
  private static void onText(String text, Position p, Diagnostic d) {
    List<Integer> starts = lineStarts(text);
    if (p.getLine() >= starts.size()) {
      throw new AssertionError("line " + p.getLine() + " of " + starts.size() + ": " + d);
    }
    int start = starts.get(p.getLine());
    int end = p.getLine() + 1 < starts.size() ? starts.get(p.getLine() + 1) : text.length();
    if (end > start && text.charAt(end - 1) == '\n') {
      end--;
    }
    if (end > start && text.charAt(end - 1) == '\r') {
      end--;
    }
    int offset = start + p.getCharacter();
    if (offset > end) {
      throw new AssertionError("column " + p.getCharacter() + " past the end of line " + p.getLine() + ": " + d);
    }
    if (offset > 0 && offset < text.length() && Character.isHighSurrogate(text.charAt(offset - 1))
        && Character.isLowSurrogate(text.charAt(offset))) {
      throw new AssertionError("column " + p.getCharacter() + " splits a surrogate pair: " + d);
    }
  }

  /** An offset between the CR and LF of a line break moved before the CR: no LSP position lies between them. */
  private static int outsideCrLf(String text, int offset) {
    boolean between = offset > 0 && offset < text.length() && text.charAt(offset - 1) == '\r'
        && text.charAt(offset) == '\n';
    return between ? offset - 1 : offset;
  }

  /** The LSP position of an offset, lines ending at {@code \n}, {@code \r\n} or a lone {@code \r}. */
  private static Position position(String text, int offset) {
    List<Integer> starts = lineStarts(text);
    int line = 0;
    while (line + 1 < starts.size() && starts.get(line + 1) <= offset) {
      line++;
    }
    return new Position(line, offset - starts.get(line));
  }

  private static List<Integer> lineStarts(String text) {
    List<Integer> starts = new ArrayList<>(List.of(0));
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\n' || c == '\r' && (i + 1 == text.length() || text.charAt(i + 1) != '\n')) {
        starts.add(i + 1);
      }
    }
    return starts;
  }

  /**
   * A read file as text: problems, then each document's index, range and tree with every node's class, range,
   * path and value; a node met again (an alias) is named by the number of its first appearance.
   */
  private static String describe(ParsedFile parsed) {
    StringBuilder sb = new StringBuilder();
    for (ParseProblem p : parsed.problems()) {
      range(p.range(), sb.append(p.kind()).append(' ')).append(' ').append(p.message()).append('\n');
    }
    sb.append(parsed.templated()).append(parsed.hiddenOutputLines()).append('\n');
    Map<YNode, Integer> seen = new IdentityHashMap<>();
    for (YamlDocument d : parsed.documents()) {
      range(d.range(), sb.append("document ").append(d.index()).append(' ')).append('\n');
      if (d.root() != null) {
        describe(d.root(), 1, seen, sb);
      }
    }
    return sb.toString();
  }

  /** A range as {@code line:column-line:column}, written straight into the text: records' toString costs more. */
  private static StringBuilder range(io.hooklens.core.yaml.Range r, StringBuilder sb) {
    return sb.append(r.start().line()).append(':').append(r.start().column()).append('-').append(r.end().line())
        .append(':').append(r.end().column());
  }

  private static void describe(YNode node, int depth, Map<YNode, Integer> seen, StringBuilder sb) {
    sb.append("  ".repeat(depth));
    Integer first = seen.get(node);
    if (first != null) {
      sb.append('*').append(first).append('\n');
      return;
    }
    seen.put(node, seen.size());
    range(node.range(), sb.append(node.getClass().getSimpleName()).append(' ')).append(' ').append(node.path());
    if (node instanceof YScalar s) {
      sb.append(" = ").append(s.type()).append(s.quoted() ? " quoted " : " ").append(s.value()).append('\n');
    } else if (node instanceof YMap m) {
      sb.append('\n');
      for (YMap.Entry e : m.entries()) {
        describe(e.key(), depth + 1, seen, sb);
        describe(e.value(), depth + 1, seen, sb);
      }
    } else {
      sb.append('\n');
      for (YNode item : node.asSeq().items()) {
        describe(item, depth + 1, seen, sb);
      }
    }
  }
}
