package io.hooklens.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import io.hooklens.TestPaths;
import org.eclipse.lsp4j.ExecuteCommandParams;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.TextDocumentContentChangeEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Work on the whole workspace never makes an open document's diagnostics wait. */
class OpenDocumentsFirstTest {
  @TempDir
  Path dir;

  /**
   * A workspace lint asked for just after a large document is opened publishes its first file only after that
   * document's diagnostics, and still publishes every file.
   */
  @Test
  void aWorkspaceLintWaitsForTheOpenedDocument() throws Exception {
    Path workspace = Files.createDirectories(dir.resolve("workspace"));
    for (int i = 0; i < 5; i++) {
      Files.writeString(workspace.resolve("pod-" + i + ".yaml"), SameFindingsTest.POD);
    }
    String large = "---\n" + String.join("---\n", Collections.nCopies(400, SameFindingsTest.POD));
    String opened = dir.resolve("large.yaml").toUri().toString();
    try (LspSession s = LspSession.inFolders(workspace)) {
      s.open(opened, "yaml", large);
      CompletableFuture<Object> lint = s.remote.getWorkspaceService()
          .executeCommand(new ExecuteCommandParams("hooklens.lintWorkspace", List.of()));
      JsonObject answer = new Gson().toJsonTree(lint.get(RecordingClient.TIMEOUT_MS, TimeUnit.MILLISECONDS))
          .getAsJsonObject();
      assertEquals("linted", answer.get("status").getAsString(), answer::toString);
      assertEquals(5, answer.get("files").getAsInt(), answer::toString);
      assertTrue(s.client.awaitDiagnostics(opened, 1).getDiagnostics().size() >= 400);
      // The order of each URI's first publication.
      List<String> order = List.copyOf(s.client.lastPublications().keySet());
      assertEquals(6, order.size(), order::toString);
      assertEquals(opened, order.get(0), order::toString);
      assertTrue(order.stream().skip(1).allMatch(u -> u.contains("/workspace/pod-")), order::toString);
    }
  }

  /**
   * A chart's render, due a short while after one of its templates is opened, starts only once an edit of another
   * open document, waiting for its debounce delay, has its diagnostics.
   */
  @Test
  void aChartRenderWaitsForAnEditedDocument() throws Exception {
    Path shop = TestPaths.chartCopy("shop", dir);
    Path deployment = shop.resolve("templates/deployment.yaml");
    String job = shop.resolve("templates/migrate-job.yaml").toUri().toString();
    String edited = dir.resolve("pod.yaml").toUri().toString();
    // Longer than the chart's own delay and its render together.
    try (LspSession s = LspSession.start(LspSession.json("{\"hooklens\": {\"debounceMs\": 4000}}"))) {
      s.open(edited, "yaml", SameFindingsTest.POD);
      s.client.awaitDiagnostics(edited, 1);
      s.change(edited, 2, new TextDocumentContentChangeEvent(SameFindingsTest.POD + "# edited\n"));
      s.open(deployment.toUri().toString(), "helm", Files.readString(deployment));
      s.client.awaitDiagnostics(job, p -> true);
      List<PublishDiagnosticsParams> all = s.client.allPublications();
      int edit = indexOf(all, p -> p.getUri().equals(edited) && Integer.valueOf(2).equals(p.getVersion()));
      int render = indexOf(all, p -> p.getUri().equals(job));
      assertTrue(edit >= 0 && edit < render, () -> "edit at " + edit + ", render at " + render + " in "
          + all.stream().map(p -> p.getUri() + "#" + p.getVersion()).toList());
    }
  }

  private static int indexOf(List<PublishDiagnosticsParams> all, Predicate<PublishDiagnosticsParams> which) {
    for (int i = 0; i < all.size(); i++) {
      if (which.test(all.get(i))) {
        return i;
      }
    }
    return -1;
  }
}
