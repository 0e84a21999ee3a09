package io.hooklens.lsp;

import static io.hooklens.lsp.DiagnosticsTest.POD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.hooklens.rules.BuiltInRules;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DiagnosticSeverity;
import org.eclipse.lsp4j.DidChangeConfigurationCapabilities;
import org.eclipse.lsp4j.DidChangeConfigurationParams;
import org.eclipse.lsp4j.DidChangeWatchedFilesCapabilities;
import org.eclipse.lsp4j.DidChangeWatchedFilesParams;
import org.eclipse.lsp4j.DidSaveTextDocumentParams;
import org.eclipse.lsp4j.FileChangeType;
import org.eclipse.lsp4j.FileEvent;
import org.eclipse.lsp4j.MessageType;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.Registration;
import org.eclipse.lsp4j.TextDocumentContentChangeEvent;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.eclipse.lsp4j.WorkspaceClientCapabilities;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Settings and .hooklens.yaml, end to end: they change diagnostics while documents are open. */
class ConfigurationTest {
  private static final String SLEEP = """
      apiVersion: v1
      kind: Pod
      metadata:
        name: web
      spec:
        containers:
          - name: app
            image: nginx
            lifecycle:
              preStop:
                sleep: {seconds: 5}
      """;

  @TempDir
  Path dir;

  /** The severity of a rule's one diagnostic, or empty when the rule reported nothing. */
  private static Optional<DiagnosticSeverity> severity(PublishDiagnosticsParams p, String ruleId) {
    return p.getDiagnostics().stream().filter(d -> d.getCode().getLeft().equals(ruleId)).findFirst()
        .map(Diagnostic::getSeverity);
  }

  private static void configure(LspSession session, String json) {
    session.remote.getWorkspaceService().didChangeConfiguration(new DidChangeConfigurationParams(
        LspSession.json(json)));
  }

  @Test
  void initializationOptionsSetSeveritiesAndTargets() throws Exception {
    String options = "{\"hooklens\": {\"debounceMs\": 0, \"rules\": {\"HL401\": \"error\"},"
        + " \"targets\": {\"kubernetes\": \"1.28\"}}}";
    try (LspSession session = LspSession.start(LspSession.json(options))) {
      session.open("file:///work/pod.yaml", "yaml", POD);
      assertEquals(Optional.of(DiagnosticSeverity.Error),
          severity(session.client.awaitDiagnostics("file:///work/pod.yaml", 1), "HL401"));
      session.open("file:///work/sleep.yaml", "yaml", SLEEP);
      assertTrue(severity(session.client.awaitDiagnostics("file:///work/sleep.yaml", 1), "HL107").isPresent());
    }
  }

  @Test
  void changedSettingsRevalidateOpenDocumentsLive() throws Exception {
    String uri = "file:///work/pod.yaml";
    try (LspSession session = LspSession.start()) {
      session.open(uri, "yaml", POD);
      assertEquals(Optional.of(DiagnosticSeverity.Warning), severity(session.client.awaitDiagnostics(uri, 1), "HL401"));
      configure(session,
          "{\"hooklens\": {\"debounceMs\": 0, \"rules\": {\"prestop-budget-exceeds-grace\": \"error\"}}}");
      session.client.awaitDiagnostics(uri, p -> severity(p, "HL401").equals(Optional.of(DiagnosticSeverity.Error)));
      configure(session, "{\"hooklens\": {\"debounceMs\": 0, \"rules\": {\"HL4xx\": \"off\"}}}");
      session.client.awaitDiagnostics(uri, p -> severity(p, "HL401").isEmpty());
      // Another tool's settings leave ours as they are.
      configure(session, "{\"yaml\": {\"validate\": false}}");
      configure(session, "{\"hooklens\": {\"debounceMs\": 0}}");
      session.client.awaitDiagnostics(uri, p -> severity(p, "HL401").equals(Optional.of(DiagnosticSeverity.Warning)));
    }
  }

  @Test
  void badSettingValuesAreLoggedAndTheRestStillApplies() throws Exception {
    String uri = "file:///work/pod.yaml";
    try (LspSession session = LspSession.start()) {
      session.open(uri, "yaml", POD);
      session.client.awaitDiagnostics(uri, 1);
      configure(session, "{\"hooklens\": {\"debounceMs\": \"soon\", \"rules\": {\"HL401\": \"loud\","
          + " \"HL4xx\": \"error\"}, \"targets\": [1]}}");
      for (String setting : List.of("hooklens.rules.HL401", "hooklens.debounceMs", "hooklens.targets")) {
        session.client.awaitLog(m -> m.getType() == MessageType.Warning && m.getMessage().contains(setting));
      }
      // The bad value for HL401 is dropped; the pattern beside it still applies.
      session.client.awaitDiagnostics(uri, p -> severity(p, "HL401").equals(Optional.of(DiagnosticSeverity.Error)));
    }
  }

  @Test
  void theNearestHooklensYamlAppliesAndItsChangesOnDiskRevalidate() throws Exception {
    Path config = dir.resolve(".hooklens.yaml");
    Files.writeString(config, "rules:\n  HL401: off\n", StandardCharsets.UTF_8);
    Files.createDirectories(dir.resolve("k8s/apps"));
    String uri = dir.resolve("k8s/apps/pod.yaml").toUri().toString();
    try (LspSession session = LspSession.start()) {
      session.open(uri, "yaml", POD);
      assertEquals(Optional.empty(), severity(session.client.awaitDiagnostics(uri, 1), "HL401"));

      Files.writeString(config, "rules:\n  HL401: error\n", StandardCharsets.UTF_8);
      session.remote.getWorkspaceService().didChangeWatchedFiles(new DidChangeWatchedFilesParams(List.of(
          new FileEvent(config.toUri().toString(), FileChangeType.Changed))));
      session.client.awaitDiagnostics(uri, p -> severity(p, "HL401").equals(Optional.of(DiagnosticSeverity.Error)));

      // The editor's settings win over the file, rule by rule.
      configure(session, "{\"hooklens\": {\"debounceMs\": 0, \"rules\": {\"HL401\": \"info\"}}}");
      session.client.awaitDiagnostics(uri,
          p -> severity(p, "HL401").equals(Optional.of(DiagnosticSeverity.Information)));

      Files.delete(config);
      configure(session, "{\"hooklens\": {\"debounceMs\": 0}}");
      session.remote.getWorkspaceService().didChangeWatchedFiles(new DidChangeWatchedFilesParams(List.of(
          new FileEvent(config.toUri().toString(), FileChangeType.Deleted))));
      session.client.awaitDiagnostics(uri, p -> severity(p, "HL401").equals(Optional.of(DiagnosticSeverity.Warning)));
    }
  }

  @Test
  void aBrokenHooklensYamlIsShownOnceAndTheDefaultsApply() throws Exception {
    Path config = dir.resolve(".hooklens.yaml");
    Files.writeString(config, "rules:\n  HL401: offf\n", StandardCharsets.UTF_8);
    String uri = dir.resolve("pod.yaml").toUri().toString();
    try (LspSession session = LspSession.start()) {
      session.open(uri, "yaml", POD);
      assertEquals(Optional.of(DiagnosticSeverity.Warning), severity(session.client.awaitDiagnostics(uri, 1), "HL401"));
      session.client.awaitShown(m -> m.getType() == MessageType.Warning && m.getMessage().contains(config.toString())
          && m.getMessage().contains(":2:10: \"offf\" is not a severity"));
      session.change(uri, 2, new TextDocumentContentChangeEvent(POD + "# edited\n"));
      session.client.awaitDiagnostics(uri, 2);
      assertEquals(1, session.client.shown().size(), "shown once, not on every edit");

      // Saving the fixed file in the editor applies it, for clients that watch no files.
      Files.writeString(config, "rules:\n  HL401: off\n", StandardCharsets.UTF_8);
      session.remote.getTextDocumentService().didSave(new DidSaveTextDocumentParams(
          new TextDocumentIdentifier(config.toUri().toString())));
      session.client.awaitDiagnostics(uri, p -> p.getVersion() == 2 && severity(p, "HL401").isEmpty());
    }
  }

  @Test
  void clientsThatCanWatchFilesAreAskedToWatchTheConfiguration() throws Exception {
    try (LspSession session = LspSession.start(BuiltInRules.registry(), null, caps -> {
      WorkspaceClientCapabilities ws = new WorkspaceClientCapabilities();
      ws.setDidChangeWatchedFiles(new DidChangeWatchedFilesCapabilities(true));
      caps.setWorkspace(ws);
    }, c -> { })) {
      Registration r = session.client.await(() -> session.client.registrations().stream()
          .flatMap(p -> p.getRegistrations().stream()).findFirst().orElse(null), () -> "a registration");
      assertEquals("workspace/didChangeWatchedFiles", r.getMethod());
      // The client's lsp4j leaves registration options as JSON, as an editor's client library sees them.
      JsonObject options = (JsonObject) r.getRegisterOptions();
      assertEquals("**/.hooklens.yaml", options.getAsJsonArray("watchers").get(0).getAsJsonObject()
          .get("globPattern").getAsString());
    }
  }

  @Test
  void clientsThatServeWorkspaceConfigurationAreAskedForTheSection() throws Exception {
    String uri = "file:///work/pod.yaml";
    String[] answer = {"{\"debounceMs\": 0, \"rules\": {\"HL401\": \"error\"}}"};
    try (LspSession session = LspSession.start(BuiltInRules.registry(), null, caps -> {
      WorkspaceClientCapabilities ws = new WorkspaceClientCapabilities();
      ws.setConfiguration(true);
      ws.setDidChangeConfiguration(new DidChangeConfigurationCapabilities(false));
      caps.setWorkspace(ws);
    }, client -> client.answerConfiguration(params -> {
      assertEquals("hooklens", params.getItems().get(0).getSection());
      return List.of(LspSession.json(answer[0]));
    }))) {
      session.open(uri, "yaml", POD);
      session.client.awaitDiagnostics(uri, p -> severity(p, "HL401").equals(Optional.of(DiagnosticSeverity.Error)));
      // A change notification without the section means "ask again".
      answer[0] = "{\"debounceMs\": 0, \"rules\": {\"HL401\": \"off\"}}";
      configure(session, "{}");
      session.client.awaitDiagnostics(uri, p -> severity(p, "HL401").isEmpty());
    }
  }
}
