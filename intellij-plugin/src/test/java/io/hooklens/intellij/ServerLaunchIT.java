package io.hooklens.intellij;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.eclipse.lsp4j.ClientCapabilities;
import org.eclipse.lsp4j.ConfigurationParams;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DidChangeConfigurationParams;
import org.eclipse.lsp4j.DidOpenTextDocumentParams;
import org.eclipse.lsp4j.InitializeParams;
import org.eclipse.lsp4j.InitializedParams;
import org.eclipse.lsp4j.MessageActionItem;
import org.eclipse.lsp4j.MessageParams;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.ShowMessageRequestParams;
import org.eclipse.lsp4j.TextDocumentItem;
import org.eclipse.lsp4j.WorkspaceClientCapabilities;
import org.eclipse.lsp4j.jsonrpc.Launcher;
import org.eclipse.lsp4j.launch.LSPLauncher;
import org.eclipse.lsp4j.services.LanguageClient;
import org.eclipse.lsp4j.services.LanguageServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end: the plugin as installed from its zip builds the command it hands LSP4IJ; that command starts the
 * real server, which answers over stdio as LSP4IJ talks to it: diagnostics for an example, settings from the
 * plugin's configuration JSON, and a clean shutdown.
 */
@Tag("slow")
class ServerLaunchIT {
  private static final Path REPO = Path.of(System.getProperty("hooklens.repoRoot", "..")).toAbsolutePath().normalize();
  /** Generous: the server's first start on a busy machine loads and compiles a lot. */
  private static final long WAIT_SECONDS = 120;

  @TempDir Path tmp;

  @Test
  void theCommandThePluginBuildsStartsTheServerWhichLintsAnExampleAndShutsDownCleanly() throws Exception {
    Path plugin = PackagedPlugin.unzip(tmp);
    List<String> command;
    try (URLClassLoader ide = PackagedPlugin.ideLoader(); URLClassLoader loader = PackagedPlugin.pluginLoader(plugin, ide)) {
      command = PackagedPlugin.serverCommand(ide, loader, "io.hooklens.intellij.HooklensServerFactory");
    }
    Path stderr = tmp.resolve("server-stderr.txt");
    Process process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
    try {
      Client client = new Client();
      Launcher<LanguageServer> launcher =
          LSPLauncher.createClientLauncher(client, process.getInputStream(), process.getOutputStream());
      launcher.startListening();
      LanguageServer server = launcher.getRemoteProxy();

      InitializeParams init = new InitializeParams();
      init.setProcessId((int) ProcessHandle.current().pid());
      init.setRootUri(REPO.resolve("examples").toUri().toString());
      ClientCapabilities caps = new ClientCapabilities();
      WorkspaceClientCapabilities ws = new WorkspaceClientCapabilities();
      ws.setConfiguration(true); // as LSP4IJ's ClientCapabilitiesFactory sets it
      caps.setWorkspace(ws);
      init.setCapabilities(caps);
      assertEquals("hooklens", server.initialize(init).get(WAIT_SECONDS, TimeUnit.SECONDS).getServerInfo().getName());
      server.initialized(new InitializedParams());

      Path web = REPO.resolve("examples/web.yaml");
      String uri = web.toUri().toString();
      // languageId as the plugin's fileNamePatternMapping gives it.
      server.getTextDocumentService().didOpen(new DidOpenTextDocumentParams(
          new TextDocumentItem(uri, "yaml", 1, Files.readString(web))));
      client.awaitDiagnostics(uri, ds -> ds.stream().anyMatch(d -> "HL401".equals(code(d))));

      // What LSP4IJ sends when the user edits the server's Configuration JSON: the whole object, unexpanded.
      JsonObject settings = JsonParser.parseString("{\"hooklens\": {\"rules\": {\"HL401\": \"off\"}}}").getAsJsonObject();
      server.getWorkspaceService().didChangeConfiguration(new DidChangeConfigurationParams(settings));
      client.awaitDiagnostics(uri, ds -> !ds.isEmpty() && ds.stream().noneMatch(d -> "HL401".equals(code(d))));

      server.shutdown().get(WAIT_SECONDS, TimeUnit.SECONDS);
      server.exit();
      assertTrue(process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS), "the server did not exit after exit");
      assertEquals(0, process.exitValue(), () -> "server stderr: " + read(stderr));
      // The settings request on initialized was answered from the plugin's default configuration.
      assertTrue(client.configurationAsked, "the server did not ask for the hooklens section");
    } finally {
      process.destroyForcibly();
    }
  }

  private static String code(Diagnostic d) {
    return d.getCode() == null ? null : d.getCode().isLeft() ? d.getCode().getLeft() : String.valueOf(d.getCode().getRight());
  }

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      return e.toString();
    }
  }

  /** The client side as LSP4IJ plays it, for what this test needs. */
  static final class Client implements LanguageClient {
    private final BlockingQueue<PublishDiagnosticsParams> diagnostics = new LinkedBlockingQueue<>();
    volatile boolean configurationAsked;

    /** Waits for diagnostics of the document that pass the check; earlier publications may still arrive. */
    void awaitDiagnostics(String uri, Predicate<List<Diagnostic>> check) throws InterruptedException {
      List<Diagnostic> last = null;
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
      while (System.nanoTime() < end) {
        PublishDiagnosticsParams p = diagnostics.poll(1, TimeUnit.SECONDS);
        if (p != null && p.getUri().equals(uri)) {
          last = p.getDiagnostics();
          if (check.test(last)) {
            return;
          }
        }
      }
      throw new AssertionError("no such diagnostics for " + uri + "; last published: " + last);
    }

    /** LSP4IJ answers from the configuration JSON: the value under the section's key. */
    @Override
    public CompletableFuture<List<Object>> configuration(ConfigurationParams params) {
      configurationAsked = true;
      JsonObject config = JsonParser.parseString(new HooklensSettings().getDefaultConfigurationContent()).getAsJsonObject();
      return CompletableFuture.completedFuture(params.getItems().stream()
          .map(item -> (Object) config.get(item.getSection())).toList());
    }

    @Override
    public void publishDiagnostics(PublishDiagnosticsParams params) {
      diagnostics.add(params);
    }

    @Override
    public void telemetryEvent(Object object) {}

    @Override
    public void showMessage(MessageParams params) {}

    @Override
    public CompletableFuture<MessageActionItem> showMessageRequest(ShowMessageRequestParams params) {
      return CompletableFuture.completedFuture(null);
    }

    @Override
    public void logMessage(MessageParams params) {}
  }
}
