package io.hooklens.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.app.CommentPlaces;
import io.hooklens.app.DcMigration;
import io.hooklens.rules.BuiltInRules;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.CodeAction;
import org.eclipse.lsp4j.CodeActionContext;
import org.eclipse.lsp4j.CodeActionParams;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.TextDocumentContentChangeEvent;
import org.eclipse.lsp4j.TextDocumentEdit;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.eclipse.lsp4j.TextEdit;
import org.eclipse.lsp4j.WorkspaceEdit;
import org.eclipse.lsp4j.WorkspaceEditCapabilities;
import org.eclipse.lsp4j.WorkspaceClientCapabilities;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * Code actions over real JSON-RPC: the client asks for the actions of a diagnostic, applies the returned
 * edit to its own text as an incremental change, and the next diagnostics no longer have that problem
 * and nothing else changed.
 */
class CodeActionsTest {
  /** HL111 after an emoji on the same line (UTF-16 columns), HL401 and an informational HL125. */
  static final String POD = """
      apiVersion: v1
      kind: Pod
      metadata:
        name: web
      spec:
        terminationGracePeriodSeconds: 10
        containers:
          - name: web
            image: nginx
            lifecycle:
              postStart:
                httpGet: {path: /😀, port: 80, scheme: https}
              preStop:
                exec: {command: ["sleep", "20"]}
      """;

  static final String DC_JSON = """
      {
        "apiVersion": "apps.openshift.io/v1",
        "kind": "DeploymentConfig",
        "metadata": {"name": "app"},
        "spec": {
          "strategy": {
            "type": "Recreate",
            "recreateParams": {
              "pre": {"failurePolicy": "Continue", "execNewPod": {"containerName": "app", "command": ["/bin/m"]}}
            }
          },
          "template": {"spec": {"containers": [{"name": "app", "image": "app"}]}}
        }
      }
      """;

  static final String TEMPLATE = """
      apiVersion: batch/v1
      kind: Job
      metadata:
        name: {{ include "shop.fullname" . }}-migrate
        annotations:
          helm.sh/hook: pre-install,pre-upgrade
          helm.sh/hook-weight: -5
      spec:
        template:
          spec:
            restartPolicy: Never
            containers:
              - name: migrate
                image: "{{ .Values.image }}"
      """;

  @Test
  void quickFixInAYamlManifestRemovesItsDiagnosticOnly() throws Exception {
    try (LspSession s = LspSession.start()) {
      String uri = "file:///work/pod.yaml";
      List<Diagnostic> before = open(s, uri, "yaml", POD);
      Diagnostic scheme = only(before, "HL111");
      List<CodeAction> actions = actions(s, uri, scheme);
      assertEquals(List.of("Write HTTPS", "Ignore HL111 here", "Ignore HL111 in this file"),
          actions.stream().map(CodeAction::getTitle).toList());
      CodeAction fix = actions.get(0);
      assertEquals("quickfix", fix.getKind());
      assertEquals(Boolean.TRUE, fix.getIsPreferred());
      assertEquals(List.of(scheme), fix.getDiagnostics());
      String after = applyAndCheck(s, uri, POD, fix.getEdit(), 2, before, "HL111");
      assertEquals(POD.replace("scheme: https", "scheme: HTTPS"), after);
    }
  }

  @Test
  void ignoreHereWritesAValidSuppressionAboveWithTheLinesIndentation() throws Exception {
    try (LspSession s = LspSession.start()) {
      String uri = "file:///work/pod.yaml";
      List<Diagnostic> before = open(s, uri, "yaml", POD);
      Diagnostic budget = only(before, "HL401");
      CodeAction raise = find(actions(s, uri, budget), "Set terminationGracePeriodSeconds to 35");
      assertNull(raise.getIsPreferred(), "raising the grace period changes behaviour: not preferred");
      CodeAction ignore = find(actions(s, uri, budget), "Ignore HL401 here");
      String after = applyAndCheck(s, uri, POD, ignore.getEdit(), 2, before, "HL401");
      assertTrue(after.contains("scheme: https}\n        # hooklens:ignore HL401 reason: ...\n        preStop:\n"),
          after);
    }
  }

  @Test
  void ignoreHereExtendsASuppressionAlreadyAboveTheLine() throws Exception {
    String text = POD.replace("        preStop:\n", "        # hooklens:ignore HL125 the image has no shell\n        preStop:\n");
    try (LspSession s = LspSession.start()) {
      String uri = "file:///work/pod.yaml";
      List<Diagnostic> before = open(s, uri, "yaml", text);
      CodeAction ignore = find(actions(s, uri, only(before, "HL401")), "Ignore HL401 here");
      String after = applyAndCheck(s, uri, text, ignore.getEdit(), 2, before, "HL401");
      assertEquals(text.replace("ignore HL125 the", "ignore HL125,HL401 the"), after);
    }
  }

  @Test
  void ignoreInThisFileCoversEveryFindingOfTheRule() throws Exception {
    try (LspSession s = LspSession.start()) {
      String uri = "file:///work/pod.yaml";
      List<Diagnostic> before = open(s, uri, "yaml", POD);
      CodeAction ignore = find(actions(s, uri, only(before, "HL125")), "Ignore HL125 in this file");
      String after = applyAndCheck(s, uri, POD, ignore.getEdit(), 2, before, "HL125");
      assertTrue(after.startsWith("# hooklens:ignore-file HL125 reason: ...\napiVersion: v1\n"), after);
    }
  }

  @Test
  void jsonManifestGetsItsFixButNoCommentSuppressions() throws Exception {
    try (LspSession s = LspSession.start()) {
      String uri = "file:///work/dc.json";
      List<Diagnostic> before = open(s, uri, "json", DC_JSON);
      List<CodeAction> actions = actions(s, uri, only(before, "HL302")).stream()
          .filter(a -> a.getKind().equals("quickfix")).toList();
      assertEquals(List.of("Replace Continue with Ignore"), actions.stream().map(CodeAction::getTitle).toList());
      assertNull(actions.get(0).getIsPreferred());
      String after = applyAndCheck(s, uri, DC_JSON, actions.get(0).getEdit(), 2, before, "HL302");
      assertEquals(DC_JSON.replace("\"Continue\"", "\"Ignore\""), after);
    }
  }

  @Test
  void chartTemplateFixLeavesTheActionsAlone() throws Exception {
    try (LspSession s = LspSession.start()) {
      String uri = "file:///work/shop/templates/migrate.yaml";
      List<Diagnostic> before = open(s, uri, "helm", TEMPLATE);
      CodeAction quote = find(actions(s, uri, only(before, "HL207")), "Quote the value");
      String after = applyAndCheck(s, uri, TEMPLATE, quote.getEdit(), 2, before, "HL207");
      assertEquals(TEMPLATE.replace("weight: -5", "weight: \"-5\""), after);
    }
  }

  @Test
  void fixAllAppliesEverySafeFixAsOneVersionedEdit() throws Exception {
    String text = POD.replace("name: web\nspec:", "name: web\n  annotations:\n    helm.sh/hook: Test\n"
        + "    helm.sh/hook-weight: 1\nspec:\n  restartPolicy: Never");
    try (LspSession s = LspSession.start(BuiltInRules.registry(), LspSession.json("{\"hooklens\": {\"debounceMs\": 0}}"),
        CodeActionsTest::documentChanges, c -> { })) {
      String uri = "file:///work/pod.yaml";
      List<Diagnostic> before = open(s, uri, "yaml", text);
      CodeActionParams params = new CodeActionParams(new TextDocumentIdentifier(uri),
          new Range(new Position(0, 0), new Position(0, 0)),
          new CodeActionContext(List.of(), List.of(CodeActionsService.FIX_ALL)));
      List<CodeAction> actions = request(s, params);
      assertEquals(1, actions.size());
      CodeAction all = actions.get(0);
      assertEquals("source.fixAll.hooklens", all.getKind());
      TextDocumentEdit versioned = all.getEdit().getDocumentChanges().get(0).getLeft();
      assertEquals(1, versioned.getTextDocument().getVersion());
      assertTrue(all.getEdit().getChanges() == null || all.getEdit().getChanges().isEmpty());
      List<Diagnostic> after = applyAndAwait(s, uri, text, all.getEdit(), 2).diagnostics();
      List<String> codes = after.stream().map(d -> d.getCode().getLeft()).sorted().toList();
      assertFalse(codes.contains("HL111") || codes.contains("HL207") || codes.contains("HL225"), codes.toString());
      assertTrue(codes.contains("HL401"), "editor-only fixes are not part of fix-all: " + codes);
    }
  }

  @Test
  void noActionsForFilesThatAreNotManifests() throws Exception {
    try (LspSession s = LspSession.start()) {
      String uri = "file:///work/compose.yaml";
      String text = "services:\n  web:\n    image: nginx\n";
      s.open(uri, "yaml", text);
      CodeActionParams params = new CodeActionParams(new TextDocumentIdentifier(uri),
          new Range(new Position(0, 0), new Position(0, 0)), new CodeActionContext(List.of()));
      assertEquals(List.of(), request(s, params));
    }
  }

  /** A ConfigMap, a commented DeploymentConfig with hooks of every kind, and a Secret, as documents of one file. */
  static final String HEAD = """
      # the app's settings
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: settings
      data:
        mode: fast
      ---
      # the app itself, kept until the move
      """;

  static final String DC = """
      apiVersion: apps.openshift.io/v1
      kind: DeploymentConfig
      metadata:
        name: shop
      spec:
        replicas: 2
        selector:
          app: shop
        triggers:
          - type: ConfigChange
        strategy:
          type: Rolling
          rollingParams:
            timeoutSeconds: 600
            pre:
              failurePolicy: Abort
              execNewPod:
                containerName: shop
                command: ["/bin/migrate"]
            mid:
              failurePolicy: Ignore
              execNewPod:
                containerName: shop
                command: ["/bin/warm"]
            post:
              failurePolicy: Retry
              execNewPod:
                containerName: shop
                command: ["/bin/notify"]
        template:
          metadata:
            labels:
              app: shop
          spec:
            containers:
              - name: shop
                image: registry.example.com/shop@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
      """;

  static final String TAIL = """
      # end of the app
      ---
      apiVersion: v1
      kind: Secret
      metadata:
        name: token
      stringData:
        token: t
      """;

  @Test
  void migrationIsOfferedOnADeploymentConfigOnlyAndReplacesItWithWhatMigrateDcWrites() throws Exception {
    String text = HEAD + DC + TAIL;
    int dcFirst = lines(HEAD);
    try (LspSession s = LspSession.start()) {
      String uri = "file:///work/app.yaml";
      open(s, uri, "yaml", text);
      for (int line : new int[] {1, dcFirst - 1, dcFirst + lines(DC), dcFirst + lines(DC) + 3}) {
        assertEquals(List.of(), refactors(s, uri, line), "line " + line);
      }
      List<CodeAction> actions = refactors(s, uri, dcFirst + 20);
      assertEquals(List.of("Migrate this DeploymentConfig to a Deployment"),
          actions.stream().map(CodeAction::getTitle).toList());
      assertEquals(List.of(actions.get(0).getTitle()), refactors(s, uri, dcFirst).stream().map(CodeAction::getTitle)
          .toList(), "from the DC's first line");
      Applied applied = applyAndAwait(s, uri, text, actions.get(0).getEdit(), 2);
      String migrated = DcMigration.migrate(DC).text();
      assertTrue(migrated.contains("kind: Deployment") && migrated.contains("# shop: the mid hook"), migrated);
      assertEquals(HEAD + migrated + TAIL, applied.text());
      assertCleanButHl223(applied);
    }
  }

  @Test
  void migrationInATemplateRewritesTheTemplateAndItsEveryDcAsMigrateDcDoes() throws Exception {
    String template = """
        apiVersion: template.openshift.io/v1
        kind: Template
        metadata:
          name: shop
        objects:
          - apiVersion: v1
            kind: Service
            metadata:
              name: shop
            spec:
              ports: [{port: 80}]
        """ + DC.indent(2).replaceFirst("  apiVersion", "- apiVersion").indent(2)
        + DC.replace("shop", "cart").indent(2).replaceFirst("  apiVersion", "- apiVersion").indent(2);
    String text = HEAD + template + TAIL;
    int dcFirst = lines(HEAD) + 11;
    try (LspSession s = LspSession.start()) {
      String uri = "file:///work/template.yaml";
      open(s, uri, "yaml", text);
      assertEquals(List.of(), refactors(s, uri, lines(HEAD) + 7), "on the Service");
      List<CodeAction> actions = refactors(s, uri, dcFirst + 3);
      assertEquals(List.of("Migrate the 2 DeploymentConfigs of this Template to Deployments"),
          actions.stream().map(CodeAction::getTitle).toList());
      Applied applied = applyAndAwait(s, uri, text, actions.get(0).getEdit(), 2);
      assertEquals(HEAD + DcMigration.migrate(template).text() + TAIL, applied.text());
      assertTrue(applied.text().contains("name: cart-post-hook"), applied.text());
    }
  }

  @Test
  void migrationKeepsEveryCommentOfTheDcWithWhatTheDeploymentOrItsJobsMakeOfItsField() throws Exception {
    String text = CommentPlaces.fixture();
    try (LspSession s = LspSession.start()) {
      String uri = "file:///work/commented.yaml";
      open(s, uri, "yaml", text);
      List<CodeAction> actions = refactors(s, uri, 5);
      assertEquals(List.of("Migrate this DeploymentConfig to a Deployment"),
          actions.stream().map(CodeAction::getTitle).toList());
      Applied applied = applyAndAwait(s, uri, text, actions.get(0).getEdit(), 2);
      Map<String, List<String>> expected = new TreeMap<>();
      CommentPlaces.EXPECTED.forEach((mark, place) -> expected.put(mark, List.of(place)));
      // The comment lines after the object stay where they were: after the last Job it becomes.
      expected.put("c-end", List.of("Job/shop-post-hook (end)"));
      assertEquals(expected, new TreeMap<>(CommentPlaces.of(applied.text())), applied.text());
      for (String part : CommentPlaces.LIST_ITEMS) {
        assertTrue(applied.text().contains(part), () -> part + " missing from:\n" + applied.text());
      }
      assertCleanButHl223(applied);
    }
  }

  @Test
  void aHookNamingAContainerTheTemplateLacksIsNamedInTheTitleAndLeftAsATodoNote() throws Exception {
    String text = CommentPlaces.fixture().replace("containerName: shop # c-pre-container", "containerName: missing");
    try (LspSession s = LspSession.start()) {
      String uri = "file:///work/missing.yaml";
      assertEquals(1, open(s, uri, "yaml", text).stream().filter(d -> d.getCode().getLeft().equals("HL307")).count());
      List<CodeAction> actions = refactors(s, uri, 5);
      assertEquals(List.of("Migrate this DeploymentConfig to a Deployment (1 hook(s) left as TODO notes: shop pre"
          + " hook: no container named \"missing\" in the template (containers: shop))"),
          actions.stream().map(CodeAction::getTitle).toList());
      Applied applied = applyAndAwait(s, uri, text, actions.get(0).getEdit(), 2);
      assertTrue(applied.text().contains("# shop: TODO: the pre hook was not migrated") && !applied.text()
          .contains("shop-pre-hook") && applied.text().contains("#   # c-pre: migrates the schema"), applied.text());
      assertCleanButHl223(applied);
    }
  }

  @Test
  void migrationKeepsTheFilesCrlfLineBreaks() throws Exception {
    String text = (HEAD + DC + TAIL).replace("\n", "\r\n");
    try (LspSession s = LspSession.start()) {
      String uri = "file:///work/app.yaml";
      open(s, uri, "yaml", text);
      Applied applied = applyAndAwait(s, uri, text, refactors(s, uri, lines(HEAD) + 3).get(0).getEdit(), 2);
      assertEquals((HEAD + DcMigration.migrate(DC).text() + TAIL).replace("\n", "\r\n"), applied.text());
    }
  }

  @Test
  void noMigrationInAChartTemplateWhoseTemplatingItWouldDrop() throws Exception {
    String text = DC.replace("replicas: 2", "replicas: \"{{ .Values.replicas }}\"");
    try (LspSession s = LspSession.start()) {
      String uri = "file:///work/shop/templates/dc.yaml";
      open(s, uri, "helm", text);
      assertEquals(List.of(), refactors(s, uri, 3));
    }
  }

  @Test
  void migrationInJsonWritesJson() throws Exception {
    try (LspSession s = LspSession.start()) {
      String uri = "file:///work/dc.json";
      open(s, uri, "json", DC_JSON);
      List<CodeAction> actions = refactors(s, uri, 3);
      assertEquals(1, actions.size());
      assertTrue(actions.get(0).getTitle().startsWith("Migrate this DeploymentConfig to a Deployment ("),
          actions.get(0).getTitle());
      Applied applied = applyAndAwait(s, uri, DC_JSON, actions.get(0).getEdit(), 2);
      assertEquals(DcMigration.migrateJson(DC_JSON).text(), applied.text());
      assertTrue(applied.text().startsWith("{") && applied.text().contains("\"kind\" : \"List\""), applied.text());
      assertCleanButHl223(applied);
    }
  }

  @Test
  void aDeploymentConfigOfWrongTypesGetsAnActionWhoseResultStillParsesAndTheServerGoesOn() throws Exception {
    String bad = """
        apiVersion: apps.openshift.io/v1
        kind: DeploymentConfig
        metadata: [shop]
        spec:
          selector: 5
          triggers: {type: ImageChange}
          strategy:
            type: Recreate
            recreateParams:
              pre: nothing
              mid: [1, 2]
              post:
                failurePolicy: [Retry]
                execNewPod: {containerName: {a: b}, command: 7, env: x, volumes: [data]}
          template: 3
        """;
    try (LspSession s = LspSession.start()) {
      String uri = "file:///work/bad.yaml";
      open(s, uri, "yaml", bad);
      List<CodeAction> actions = refactors(s, uri, 1);
      assertEquals(1, actions.size(), "what has the wrong type is left out, and said so");
      Applied applied = applyAndAwait(s, uri, bad, actions.get(0).getEdit(), 2);
      List<Object> docs = new ArrayList<>();
      new Load(LoadSettings.builder().build()).loadAllFromString(applied.text()).forEach(docs::add);
      assertEquals(List.of("Deployment"), docs.stream().map(d -> ((java.util.Map<?, ?>) d).get("kind")).toList(),
          applied.text());
      assertTrue(applied.text().contains("the pre hook is not a mapping"), applied.text());
      assertTrue(applied.text().contains("TODO: the post hook was not migrated: no container named \"{a=b}\""),
          applied.text());
      String broken = bad.replace("template: 3", "template: [3");
      s.change(uri, 3, new TextDocumentContentChangeEvent(broken));
      s.client.awaitDiagnostics(uri, 3);
      assertEquals(List.of(), refactors(s, uri, 1), "no action on a DC that is not YAML");
      String uri2 = "file:///work/pod.yaml";
      assertFalse(open(s, uri2, "yaml", POD).isEmpty(), "the server still lints");
    }
  }

  /** HL223 is the one finding a migration may bring, as {@code migrate dc} documents. */
  private static void assertCleanButHl223(Applied applied) {
    assertEquals(List.of(), applied.diagnostics().stream().map(d -> d.getCode().getLeft())
        .filter(c -> !c.equals("HL223")).toList(), applied.text());
  }

  private static int lines(String text) {
    return (int) text.chars().filter(c -> c == '\n').count();
  }

  private static List<CodeAction> refactors(LspSession s, String uri, int line) throws Exception {
    return request(s, new CodeActionParams(new TextDocumentIdentifier(uri),
        new Range(new Position(line, 2), new Position(line, 2)),
        new CodeActionContext(List.of(), List.of("refactor"))));
  }

  private static void documentChanges(org.eclipse.lsp4j.ClientCapabilities caps) {
    WorkspaceClientCapabilities ws = new WorkspaceClientCapabilities();
    WorkspaceEditCapabilities edit = new WorkspaceEditCapabilities();
    edit.setDocumentChanges(true);
    ws.setWorkspaceEdit(edit);
    caps.setWorkspace(ws);
  }

  private static List<Diagnostic> open(LspSession s, String uri, String language, String text) {
    s.open(uri, language, text);
    return s.client.awaitDiagnostics(uri, 1).getDiagnostics();
  }

  private static Diagnostic only(List<Diagnostic> ds, String code) {
    List<Diagnostic> found = ds.stream().filter(d -> d.getCode().getLeft().equals(code)).toList();
    assertEquals(1, found.size(), code + " in " + ds);
    return found.get(0);
  }

  private static CodeAction find(List<CodeAction> actions, String title) {
    return actions.stream().filter(a -> a.getTitle().equals(title)).findFirst()
        .orElseThrow(() -> new AssertionError("no \"" + title + "\" in " + actions.stream()
            .map(CodeAction::getTitle).toList()));
  }

  private static List<CodeAction> actions(LspSession s, String uri, Diagnostic d) throws Exception {
    return request(s, new CodeActionParams(new TextDocumentIdentifier(uri), d.getRange(),
        new CodeActionContext(List.of(d))));
  }

  private static List<CodeAction> request(LspSession s, CodeActionParams params) throws Exception {
    List<Either<org.eclipse.lsp4j.Command, CodeAction>> result = s.remote.getTextDocumentService()
        .codeAction(params).get(RecordingClient.TIMEOUT_MS, TimeUnit.MILLISECONDS);
    return result.stream().map(Either::getRight).toList();
  }

  private record Applied(String text, List<Diagnostic> diagnostics) {}

  /** Applies an edit as the client would: to its text, sent as incremental changes, last edit first. */
  private static Applied applyAndAwait(LspSession s, String uri, String text, WorkspaceEdit edit, int version) {
    List<TextEdit> edits = new ArrayList<>(edit.getDocumentChanges() == null || edit.getDocumentChanges().isEmpty()
        ? edit.getChanges().get(uri)
        : edit.getDocumentChanges().get(0).getLeft().getEdits().stream().map(Either::getLeft).toList());
    assertNotNull(edits);
    edits.sort(Comparator.comparing((TextEdit e) -> e.getRange().getStart().getLine())
        .thenComparing(e -> e.getRange().getStart().getCharacter()).reversed());
    String after = text;
    List<TextDocumentContentChangeEvent> changes = new ArrayList<>();
    for (TextEdit e : edits) {
      int from = offset(after, e.getRange().getStart());
      int to = offset(after, e.getRange().getEnd());
      after = after.substring(0, from) + e.getNewText() + after.substring(to);
      changes.add(new TextDocumentContentChangeEvent(e.getRange(), e.getNewText()));
    }
    s.change(uri, version, changes.toArray(TextDocumentContentChangeEvent[]::new));
    return new Applied(after, s.client.awaitDiagnostics(uri, version).getDiagnostics());
  }

  /** Applies an edit and checks that exactly the diagnostics of {@code code} went away. */
  private static String applyAndCheck(LspSession s, String uri, String text, WorkspaceEdit edit, int version,
      List<Diagnostic> before, String code) {
    Applied applied = applyAndAwait(s, uri, text, edit, version);
    assertEquals(messages(before.stream().filter(d -> !d.getCode().getLeft().equals(code)).toList()),
        messages(applied.diagnostics()), applied.text());
    return applied.text();
  }

  private static List<String> messages(List<Diagnostic> ds) {
    return ds.stream().map(d -> d.getCode().getLeft() + " " + d.getMessage()).sorted().toList();
  }

  /** A UTF-16 offset of an LSP position, lines ending in \n. */
  private static int offset(String text, Position p) {
    int at = 0;
    for (int line = 0; line < p.getLine(); line++) {
      at = text.indexOf('\n', at) + 1;
    }
    return at + p.getCharacter();
  }
}
