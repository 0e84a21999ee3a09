package io.hooklens.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.RuleRegistry;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.rules.BuiltInRules;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DiagnosticRelatedInformation;
import org.eclipse.lsp4j.DiagnosticSeverity;
import org.eclipse.lsp4j.DiagnosticTag;
import org.eclipse.lsp4j.DidCloseTextDocumentParams;
import org.eclipse.lsp4j.MessageParams;
import org.eclipse.lsp4j.MessageType;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.TextDocumentContentChangeEvent;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Diagnostics over real JSON-RPC: what is reported, where, and what stays silent. */
class DiagnosticsTest {
  static final String POD = """
      apiVersion: v1
      kind: Pod
      metadata:
        name: web
      spec:
        terminationGracePeriodSeconds: 10
        containers:
          - name: app
            image: nginx
            lifecycle:
              preStop:
                exec:
                  command: ["sh", "-c", "nginx -s quit; sleep 20"]
      """;

  private LspSession session;

  @BeforeEach
  void start() {
    session = LspSession.start();
  }

  @AfterEach
  void stop() throws Exception {
    session.close();
  }

  private List<Diagnostic> diagnostics(String uri, String languageId, String text) {
    session.open(uri, languageId, text);
    return session.client.awaitDiagnostics(uri, 1).getDiagnostics();
  }

  static Diagnostic only(List<Diagnostic> ds, String ruleId) {
    List<Diagnostic> found = ds.stream().filter(d -> d.getCode().getLeft().equals(ruleId)).toList();
    assertEquals(1, found.size(), () -> ruleId + " once in " + ds);
    return found.get(0);
  }

  static Range range(int l1, int c1, int l2, int c2) {
    return new Range(new Position(l1, c1), new Position(l2, c2));
  }

  @Test
  void aYamlManifestGetsItsFindingsWithCodeDocsSourceAndRelatedPlaces() {
    String uri = "file:///work/k8s/pod.yaml";
    Diagnostic d = only(diagnostics(uri, "yaml", POD), "HL401");
    assertEquals(range(10, 8, 10, 15), d.getRange());
    assertEquals(DiagnosticSeverity.Warning, d.getSeverity());
    assertEquals("hooklens", d.getSource());
    assertEquals("https://github.com/hooklens/hooklens/blob/main/docs/rules/HL401.md",
        d.getCodeDescription().getHref());
    assertTrue(d.getMessage().getLeft().contains("grace period is 10s"), d.getMessage().getLeft());
    assertNull(d.getTags());
    DiagnosticRelatedInformation related = d.getRelatedInformation().get(0);
    assertEquals(uri, related.getLocation().getUri());
    assertEquals(range(5, 33, 5, 35), related.getLocation().getRange());
    assertEquals("the grace period", related.getMessage());
  }

  @Test
  void aJsonManifestIsReadAsJson() {
    String json = """
        {
          "apiVersion": "v1",
          "kind": "Pod",
          "metadata": {"name": "web"},
          "spec": {
            "containers": [
              {
        \t"name": "app",
                "image": "nginx",
                "lifecycle": {"preStop": {"tcpSocket": {"port": 8080}}}
              }
            ]
          }
        }
        """;
    Diagnostic d = only(diagnostics("file:///work/pod.json", "json", json), "HL103");
    assertEquals(DiagnosticSeverity.Error, d.getSeverity());
    assertEquals(9, d.getRange().getStart().getLine());
    // An untitled buffer the client calls JSON is read as JSON too: its tab would break YAML.
    only(diagnostics("untitled:Untitled-1", "json", json), "HL103");
  }

  @Test
  void aChartTemplateIsReadWithItsActionsMaskedAndTemplatedValuesAreNotReported() {
    String template = """
        {{- if .Values.migrate.enabled }}
        apiVersion: batch/v1
        kind: Job
        metadata:
          name: {{ include "app.fullname" . }}-migrate
          annotations:
            "helm.sh/hook": pre-instal
            "helm.sh/hook-weight": {{ .Values.weight | quote }}
        spec:
          template:
            spec:
              restartPolicy: Never
              containers:
                - name: migrate
                  image: {{ .Values.image }}
        {{- end }}
        """;
    List<Diagnostic> ds = diagnostics("file:///work/chart/templates/migrate.yaml", "helm", template);
    assertEquals(List.of("HL201"), ds.stream().map(d -> d.getCode().getLeft()).toList(), ds::toString);
    assertEquals(range(6, 20, 6, 30), ds.get(0).getRange());
  }

  @Test
  void columnsAreUtf16UnitsSoEmojiBeforeAFindingCountTwice() {
    String line = "metadata: {name: 😀😀, annotations: {helm.sh/hook: \"pre-instal,test-success\","
        + " helm.sh/hook-delete-timeout: \"5\"}}";
    String text = "apiVersion: v1\nkind: Pod\n" + line + "\nspec:\n  containers: [{name: app, image: nginx}]\n";
    List<Diagnostic> ds = diagnostics("file:///work/emoji.yaml", "yaml", text);
    Diagnostic unknown = only(ds, "HL201");
    int start = line.indexOf("\"pre-instal");
    assertEquals(range(2, start, 2, start + "\"pre-instal,test-success\"".length()), unknown.getRange());
    Diagnostic deprecated = only(ds, "HL204");
    assertEquals(DiagnosticSeverity.Information, deprecated.getSeverity());
    assertEquals(List.of(DiagnosticTag.Deprecated), deprecated.getTags());
    Diagnostic helm2 = only(ds, "HL212");
    assertEquals(line.indexOf("helm.sh/hook-delete-timeout"), helm2.getRange().getStart().getCharacter());
    assertEquals(List.of(DiagnosticTag.Deprecated, DiagnosticTag.Unnecessary), helm2.getTags());
  }

  @Test
  void aByteOrderMarkTheClientKeepsCountsOnTheFirstLine() {
    String text = "\uFEFF{apiVersion: v1, kind: Pod, metadata: {name: a, annotations: {helm.sh/hook: pre-instal}},"
        + " spec: {containers: [{name: app, image: nginx}]}}\n";
    Diagnostic d = only(diagnostics("file:///work/bom.yaml", "yaml", text), "HL201");
    assertEquals(range(0, text.indexOf("pre-instal"), 0, text.indexOf("}}")), d.getRange());
  }

  @Test
  void filesThatAreNotKubernetesManifestsStaySilentEvenWhenBroken() {
    String compose = """
        version: "3.9"
        services:
          web:
            image: nginx
            image: nginx:2
            ports: ["8080:80"
          db: [
        """;
    String workflow = """
        name: CI
        on: [push]
        jobs:
          build:
            runs-on: ubuntu-latest
            steps:
              - uses: actions/checkout@v4
                with: {kind: x}
                with: {kind: y}
        """;
    // An indented kind: key is not an object's: the file cannot parse, so the text test decides.
    String kustomizePatch = """
        patches:
          - target:
              kind: Deployment
            patch: |-
          - [
        """;
    String tasks = """
        {
          // VS Code tasks
          "version": "2.0.0",
          "tasks": [{"label": "build", "group": {"kind": "build"}}]
        }
        """;
    assertEquals(List.of(), diagnostics("file:///work/docker-compose.yml", "dockercompose", compose));
    assertEquals(List.of(), diagnostics("file:///work/.github/workflows/ci.yml", "yaml", workflow));
    assertEquals(List.of(), diagnostics("file:///work/.vscode/tasks.json", "jsonc", tasks));
    assertEquals(List.of(), diagnostics("file:///work/overlay/patches.yaml", "yaml", kustomizePatch));
    assertEquals(List.of(), diagnostics("file:///work/chart/templates/_helpers.tpl", "helm",
        "{{- define \"app.name\" -}}\n{{ .Chart.Name }}\n{{- end }}\n"));
  }

  @Test
  void aBrokenManifestStillGetsItsSyntaxError() {
    String broken = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  labels: [a, b\nspec: {}\n";
    Diagnostic d = only(diagnostics("file:///work/broken.yaml", "yaml", broken), "HL001");
    assertEquals(DiagnosticSeverity.Error, d.getSeverity());
    String json = "{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"web\",}\n";
    only(diagnostics("file:///work/broken.json", "json", json), "HL001");
  }

  @Test
  void closingADocumentClearsItsDiagnostics() {
    String uri = "file:///work/closing.yaml";
    diagnostics(uri, "yaml", POD);
    session.remote.getTextDocumentService().didClose(new DidCloseTextDocumentParams(
        new TextDocumentIdentifier(uri)));
    PublishDiagnosticsParams cleared = session.client.awaitDiagnostics(uri, p -> p.getDiagnostics().isEmpty());
    assertNull(cleared.getVersion());
  }

  /** A server with the built-in rules and one more, which validates at once. */
  private static LspSession withRule(Rule extra) throws Exception {
    List<Rule> rules = new ArrayList<>(BuiltInRules.all());
    rules.add(extra);
    return LspSession.start(new RuleRegistry(rules), LspSession.json("{\"debounceMs\": 0}"), c -> { }, c -> { });
  }

  /** Opens the pod, whose one finding is HL401, and waits for its diagnostics, which say it was checked. */
  private static void openPod(LspSession s, String uri) {
    s.open(uri, "yaml", POD);
    List<Diagnostic> first = s.client.awaitDiagnostics(uri, 1).getDiagnostics();
    only(first, "HL401");
    assertTrue(first.stream().noneMatch(DiagnosticsTest::isNotChecked), first::toString);
  }

  /** A rule with a bug: it throws on every file. */
  @RuleInfo(id = "HL999", name = "always-throws", summary = "Throws on every file", severity = Severity.ERROR,
      remediation = "Fix the rule.", messages = @Message(id = "never", text = "never reported"))
  static final class AlwaysThrows implements Rule {
    @Override
    public void check(HookDocument doc, RuleContext ctx) {
      throw new IllegalStateException("boom");
    }
  }

  /** The one diagnostic that says the file was not fully checked: a warning at its start. */
  static Diagnostic notChecked(List<Diagnostic> ds) {
    List<Diagnostic> found = ds.stream().filter(d -> d.getCode().getLeft().equals(DiagnosticsService.NOT_CHECKED))
        .toList();
    assertEquals(1, found.size(), () -> "one not-checked diagnostic in " + ds);
    Diagnostic d = found.get(0);
    assertEquals(DiagnosticSeverity.Warning, d.getSeverity());
    assertEquals(range(0, 0, 0, 0), d.getRange());
    assertEquals("hooklens", d.getSource());
    return d;
  }

  static boolean isNotChecked(Diagnostic d) {
    return d.getCode().getLeft().equals(DiagnosticsService.NOT_CHECKED);
  }

  @Test
  void aRuleThatThrowsIsLoggedWithItsIdAndTheUriAndTheOtherRulesStillReport() throws Exception {
    try (LspSession broken = withRule(new AlwaysThrows())) {
      String uri = "file:///work/throws.yaml";
      broken.open(uri, "yaml", POD);
      List<Diagnostic> ds = broken.client.awaitDiagnostics(uri, 1).getDiagnostics();
      only(ds, "HL401");
      // The file does not pass for clean where the rule would have spoken: it says it was not fully checked.
      assertEquals("Hooklens could not fully check this file: rule HL999 failed with an internal error, so its"
          + " problems are not shown. The language server's log has the details.",
          notChecked(ds).getMessage().getLeft());
      MessageParams logged = broken.client.awaitLog(m -> m.getType() == MessageType.Error
          && m.getMessage().contains("HL999") && m.getMessage().contains(uri) && m.getMessage().contains("boom"));
      assertFalse(logged.getMessage().contains("\tat "), "the stack trace is for the server's log only");
      // The server is still there: the next edit is validated as usual.
      broken.change(uri, 2, new TextDocumentContentChangeEvent(POD.replace("10", "60")));
      List<Diagnostic> next = broken.client.awaitDiagnostics(uri, 2).getDiagnostics();
      assertTrue(next.stream().noneMatch(d -> d.getCode().getLeft().equals("HL401")));
      notChecked(next);
    }
  }

  /** What the rule below needs, which fails to load: first use throws ExceptionInInitializerError, later ones
   * NoClassDefFoundError. */
  private static final class Table {
    static final List<String> ENTRIES = load();

    private static List<String> load() {
      throw new IllegalStateException("table.yaml is missing");
    }
  }

  /** A rule with a bug that is an Error rather than an exception. It needs its table only where the file says so. */
  @RuleInfo(id = "HL998", name = "table-fails-to-load", summary = "Fails to load its table",
      severity = Severity.ERROR, remediation = "Fix the rule.", messages = @Message(id = "never", text = "never"))
  static final class TableFailsToLoad implements Rule {
    @Override
    public void check(HookDocument doc, RuleContext ctx) {
      if (doc.source().text().contains("# load the table")) {
        Table.ENTRIES.size();
      }
    }
  }

  @Test
  void aRuleWhoseClassFailsToLoadCostsOnlyItsOwnFindings() throws Exception {
    try (LspSession broken = withRule(new TableFailsToLoad())) {
      String uri = "file:///work/table.yaml";
      openPod(broken, uri);
      // ExceptionInInitializerError, then NoClassDefFoundError for every later use.
      for (int version = 2; version <= 3; version++) {
        broken.change(uri, version, new TextDocumentContentChangeEvent(POD + "# load the table\n"));
        List<Diagnostic> failed = broken.client.awaitDiagnostics(uri, version).getDiagnostics();
        only(failed, "HL401");
        assertEquals("Hooklens could not fully check this file: rule HL998 failed with an internal error, so its"
            + " problems are not shown. The language server's log has the details.",
            notChecked(failed).getMessage().getLeft());
      }
      broken.client.awaitLog(m -> m.getType() == MessageType.Error && m.getMessage().contains("HL998")
          && m.getMessage().contains("NoClassDefFoundError"));
    }
  }

  /** A rule that runs out of memory where the file says so: that ends the whole lint of the file. */
  @RuleInfo(id = "HL997", name = "runs-out-of-memory", summary = "Runs out of memory",
      severity = Severity.ERROR, remediation = "Fix the rule.", messages = @Message(id = "never", text = "never"))
  static final class RunsOutOfMemory implements Rule {
    @Override
    public void check(HookDocument doc, RuleContext ctx) {
      if (doc.source().text().contains("# exhaust memory")) {
        throw new OutOfMemoryError("Java heap space");
      }
    }
  }

  @Test
  void anAnalysisThatFailsLeavesNoStaleDiagnosticsButOneThatSaysSo() throws Exception {
    try (LspSession broken = withRule(new RunsOutOfMemory())) {
      String uri = "file:///work/fails.yaml";
      openPod(broken, uri);

      // The edit that makes the analysis fail: version 2 gets diagnostics of its own, never version 1's.
      broken.change(uri, 2, new TextDocumentContentChangeEvent(POD + "# exhaust memory\n"));
      List<Diagnostic> failed = broken.client.awaitDiagnostics(uri, 2).getDiagnostics();
      assertEquals(1, failed.size(), failed::toString);
      assertEquals("Hooklens could not check this file: an internal error stopped the analysis, so its problems are"
          + " not shown. The language server's log has the details.", notChecked(failed).getMessage().getLeft());
      MessageParams logged = broken.client.awaitLog(m -> m.getType() == MessageType.Error
          && m.getMessage().startsWith("cannot check " + uri + " (version 2)"));
      assertTrue(logged.getMessage().contains("OutOfMemoryError"), logged::getMessage);
      assertFalse(logged.getMessage().contains("\tat "), "the stack trace is for the server's log only");

      // The server goes on: the next version is checked as usual.
      broken.change(uri, 3, new TextDocumentContentChangeEvent(POD));
      List<Diagnostic> again = broken.client.awaitDiagnostics(uri, 3).getDiagnostics();
      only(again, "HL401");
      assertTrue(again.stream().noneMatch(DiagnosticsTest::isNotChecked), again::toString);
    }
  }
}
