package io.hooklens.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hooklens.TestPaths;
import io.hooklens.cli.Main;
import com.google.gson.Gson;
import com.google.gson.JsonObject;
import java.io.PrintWriter;
import java.net.URI;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DidSaveTextDocumentParams;
import org.eclipse.lsp4j.ExecuteCommandParams;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The command line and the editor give the same findings for the same input: {@code hooklens lint} against the
 * real language server over JSON-RPC, file by file, each finding as its place, rule and message (with the values
 * sets that produce it).
 */
class SameFindingsTest {
  /** A pod whose preStop outlasts its grace period (HL401). */
  static final String POD = """
      apiVersion: v1
      kind: Pod
      metadata:
        name: web
      spec:
        terminationGracePeriodSeconds: 5
        containers:
          - name: web
            image: busybox
            lifecycle:
              preStop:
                exec:
                  command: ["sleep", "30"]
      """;

  @TempDir
  Path dir;

  @Test
  void aRenderedChartWithHooks() throws Exception {
    Path shop = chart("shop");
    Map<String, List<String>> cli = cli(shop);
    assertTrue(cli.values().stream().flatMap(List::stream).anyMatch(f -> f.contains("HL401")
        && f.contains("[values: ci/short-grace-values.yaml]")), cli::toString);
    assertEquals(cli, editorOnChart(shop, cli));
  }

  @Test
  void aChartHelmCannotRenderIsLintedFileByFile() throws Exception {
    Path shop = chart("shop");
    Files.writeString(shop.resolve("templates/broken.yaml"), "{{ fail \"the chart refuses these values\" }}\n");
    Map<String, List<String>> cli = cli(shop);
    List<String> all = cli.values().stream().flatMap(List::stream).toList();
    assertTrue(all.stream().anyMatch(f -> f.contains("HL005")), all::toString);
    // The fallback: the job's finding is there without rendering, so with no values sets.
    assertTrue(cli.getOrDefault(shop.resolve("templates/migrate-job.yaml").toString(), List.of()).stream()
        .anyMatch(f -> f.contains("HL105") && !f.contains("[values:")), cli::toString);
    assertEquals(cli, editorOnChart(shop, cli));
  }

  @Test
  void aManifestWithAConfigurationThatTurnsARuleOff() throws Exception {
    Path app = Files.createDirectories(dir.resolve("app"));
    Path manifest = Files.writeString(app.resolve("pod.yaml"), POD + """
                postStart:
                  httpGet:
                    path: /warm
                    port: 8080
        """);
    assertTrue(cli(manifest).getOrDefault(manifest.toString(), List.of()).stream().anyMatch(f -> f.contains(" HL401 ")),
        "the preStop outlasts the grace period");
    Files.writeString(app.resolve(".hooklens.yaml"), "rules:\n  HL401: off\n");
    Map<String, List<String>> cli = cli(manifest);
    assertTrue(cli.getOrDefault(manifest.toString(), List.of()).stream().noneMatch(f -> f.contains(" HL401 ")),
        cli::toString);
    try (LspSession s = LspSession.start(LspSession.json("{\"hooklens\": {\"debounceMs\": 0}}"))) {
      String uri = manifest.toUri().toString();
      s.open(uri, "yaml", Files.readString(manifest));
      List<String> editor = findings(s.client.awaitDiagnostics(uri, q -> true).getDiagnostics());
      assertEquals(cli, editor.isEmpty() ? Map.of() : Map.of(manifest.toString(), editor));
    }
  }

  /**
   * A folder with manifests, an excluded directory and a chart: the editor's workspace lint publishes, for every
   * file, what {@code hooklens lint FOLDER} reports on it.
   */
  @Test
  void aWorkspaceFolderWithManifestsAndAChart() throws Exception {
    Path workspace = Files.createDirectories(dir.resolve("workspace"));
    Path charts = Files.createDirectories(workspace.resolve("charts"));
    chart("shop");
    Files.move(dir.resolve("shop"), charts.resolve("shop"));
    Path app = Files.createDirectories(workspace.resolve("app"));
    Files.writeString(app.resolve("pod.yaml"), POD);
    Files.writeString(app.resolve("clean.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n");
    Files.writeString(Files.createDirectories(workspace.resolve("legacy")).resolve("old.yaml"), POD);
    Files.writeString(workspace.resolve(".hooklens.yaml"), "exclude:\n  - legacy/**\n");
    Map<String, List<String>> cli = cli(workspace);
    assertTrue(cli.keySet().stream().anyMatch(f -> f.endsWith("pod.yaml")), cli::toString);
    assertTrue(cli.keySet().stream().anyMatch(f -> f.contains("/charts/shop/")), cli::toString);
    assertTrue(cli.keySet().stream().noneMatch(f -> f.contains("legacy")), cli::toString);

    Map<String, List<String>> editor = new TreeMap<>();
    try (LspSession s = LspSession.inFolders(workspace)) {
      JsonObject answer = new Gson().toJsonTree(s.remote.getWorkspaceService()
          .executeCommand(new ExecuteCommandParams("hooklens.lintWorkspace", List.of()))
          .get(RecordingClient.TIMEOUT_MS, TimeUnit.MILLISECONDS)).getAsJsonObject();
      assertEquals("linted", answer.get("status").getAsString(), answer::toString);
      // The answer comes after every publication was sent, and the connection keeps their order.
      s.client.awaitDiagnostics(workspace.resolve("app/clean.yaml").toUri().toString(), p -> true);
      s.client.lastPublications().forEach((uri, p) -> editor.put(Path.of(URI.create(uri)).toString(),
          findings(p.getDiagnostics())));
    }
    editor.values().removeIf(List::isEmpty);
    assertEquals(cli, editor);
  }

  /** What {@code hooklens lint --format json} finds, by file; every finding of a file, sorted. */
  private static Map<String, List<String>> cli(Path path) throws Exception {
    CommandLine cl = Main.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int exit = cl.execute("lint", "--format", "json", "--fail-on", "never", path.toString());
    assertEquals(0, exit, err.toString());
    Map<String, List<String>> byFile = new TreeMap<>();
    for (JsonNode f : new ObjectMapper().readTree(out.toString()).get("findings")) {
      List<String> values = new ArrayList<>();
      f.path("values").forEach(v -> values.add(v.asText()));
      String message = f.get("message").asText() + (values.isEmpty() ? "" : " [values: " + String.join(", ", values)
          + "]");
      String file = Path.of(f.get("file").asText()).toAbsolutePath().normalize().toString();
      byFile.computeIfAbsent(file, k -> new ArrayList<>()).add(f.at("/range/start/line").asInt() + ":"
          + f.at("/range/start/column").asInt() + " " + f.get("rule").asText() + " " + message);
    }
    byFile.values().forEach(l -> l.sort(null));
    return byFile;
  }

  /** The same, as the editor shows it for the chart's files, which are not open, once the chart was saved. */
  private static Map<String, List<String>> editorOnChart(Path chart, Map<String, List<String>> expected)
      throws Exception {
    Map<String, List<String>> byFile = new TreeMap<>();
    try (LspSession s = LspSession.start(LspSession.json("{\"hooklens\": {\"debounceMs\": 0}}"))) {
      s.remote.getTextDocumentService().didSave(new DidSaveTextDocumentParams(new TextDocumentIdentifier(
          chart.resolve("Chart.yaml").toUri().toString())));
      for (Map.Entry<String, List<String>> e : expected.entrySet()) {
        String uri = Path.of(e.getKey()).toUri().toString();
        // The first publication that has as many findings as the command line's: the render's.
        PublishDiagnosticsParams p = s.client.awaitDiagnostics(uri,
            q -> q.getDiagnostics().size() >= e.getValue().size());
        byFile.put(e.getKey(), findings(p.getDiagnostics()));
      }
      // No file the command line has nothing on has something in the editor.
      try (var files = Files.walk(chart)) {
        for (Path f : files.filter(Files::isRegularFile).toList()) {
          String name = f.toAbsolutePath().normalize().toString();
          List<PublishDiagnosticsParams> published = s.client.publications(f.toUri().toString());
          if (!expected.containsKey(name) && !published.isEmpty()) {
            byFile.put(name, findings(published.get(published.size() - 1).getDiagnostics()));
          }
        }
      }
    }
    byFile.values().removeIf(List::isEmpty);
    return byFile;
  }

  private static List<String> findings(List<Diagnostic> diagnostics) {
    List<String> out = new ArrayList<>();
    for (Diagnostic d : diagnostics) {
      out.add((d.getRange().getStart().getLine() + 1) + ":" + (d.getRange().getStart().getCharacter() + 1) + " "
          + d.getCode().getLeft() + " " + d.getMessage().getLeft());
    }
    out.sort(null);
    return out;
  }

  private Path chart(String name) throws Exception {
    return TestPaths.chartCopy(name, dir);
  }
}
