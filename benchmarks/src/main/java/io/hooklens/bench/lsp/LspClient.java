package io.hooklens.bench.lsp;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.ClientCapabilities;
import org.eclipse.lsp4j.DidCloseTextDocumentParams;
import org.eclipse.lsp4j.DidOpenTextDocumentParams;
import org.eclipse.lsp4j.InitializeParams;
import org.eclipse.lsp4j.InitializeResult;
import org.eclipse.lsp4j.InitializedParams;
import org.eclipse.lsp4j.MessageActionItem;
import org.eclipse.lsp4j.MessageParams;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.RegistrationParams;
import org.eclipse.lsp4j.ShowMessageRequestParams;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.eclipse.lsp4j.TextDocumentItem;
import org.eclipse.lsp4j.launch.LSPLauncher;
import org.eclipse.lsp4j.jsonrpc.Launcher;
import org.eclipse.lsp4j.services.LanguageClient;
import org.eclipse.lsp4j.services.LanguageServer;

/**
 * A language client for one server child process, over its standard input and output with lsp4j's
 * launcher: real JSON-RPC, as an editor speaks it. It notes when each document's diagnostics arrive.
 */
final class LspClient implements LanguageClient, AutoCloseable {
  /** When a document's diagnostics for a version arrived, and how many there were. */
  record Arrival(long nanos, int count) {}

  private final Process process;
  private final LanguageServer server;
  private final Map<String, CompletableFuture<Arrival>> arrivals = new ConcurrentHashMap<>();
  private final Set<String> published = ConcurrentHashMap.newKeySet();
  private InitializeResult initialized;

  private LspClient(Process process) {
    this.process = process;
    Launcher<LanguageServer> launcher = LSPLauncher.createClientLauncher(this, process.getInputStream(),
        process.getOutputStream());
    this.server = launcher.getRemoteProxy();
    launcher.startListening();
  }

  /** Starts {@code REPO/hooklens lsp}, the launcher editors run, with its JVM flags, and initializes it. */
  static LspClient start(Path repo) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(repo.resolve("hooklens").toString(), "lsp");
    pb.redirectError(ProcessBuilder.Redirect.INHERIT);
    LspClient client = new LspClient(pb.start());
    InitializeParams init = new InitializeParams();
    init.setProcessId((int) ProcessHandle.current().pid());
    init.setRootUri(repo.toUri().toString());
    init.setCapabilities(new ClientCapabilities());
    client.initialized = client.server.initialize(init).get(120, TimeUnit.SECONDS);
    client.server.initialized(new InitializedParams());
    return client;
  }

  LanguageServer server() {
    return server;
  }

  InitializeResult initializeResult() {
    return initialized;
  }

  /** The server's process id: the launcher replaces itself with the JVM. */
  long pid() {
    return process.pid();
  }

  /** Completes when the diagnostics of this version of the document arrive. */
  CompletableFuture<Arrival> expect(String uri, int version) {
    return arrivals.computeIfAbsent(uri + "#" + version, k -> new CompletableFuture<>());
  }

  void open(String uri, String text) {
    server.getTextDocumentService().didOpen(new DidOpenTextDocumentParams(new TextDocumentItem(uri, "yaml", 1, text)));
  }

  void close(String uri) {
    server.getTextDocumentService().didClose(new DidCloseTextDocumentParams(new TextDocumentIdentifier(uri)));
  }

  /** How many documents have had diagnostics published at least once. */
  int documentsPublished() {
    return published.size();
  }

  @Override
  public void publishDiagnostics(PublishDiagnosticsParams diagnostics) {
    long now = System.nanoTime();
    published.add(diagnostics.getUri());
    if (diagnostics.getVersion() != null) {
      expect(diagnostics.getUri(), diagnostics.getVersion())
          .complete(new Arrival(now, diagnostics.getDiagnostics().size()));
    }
  }

  @Override
  public void telemetryEvent(Object object) {}

  @Override
  public void showMessage(MessageParams message) {
    System.err.println("server: " + message.getMessage());
  }

  @Override
  public CompletableFuture<MessageActionItem> showMessageRequest(ShowMessageRequestParams params) {
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public void logMessage(MessageParams message) {}

  @Override
  public CompletableFuture<Void> registerCapability(RegistrationParams params) {
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public CompletableFuture<List<Object>> configuration(org.eclipse.lsp4j.ConfigurationParams params) {
    return CompletableFuture.completedFuture(params.getItems().stream().map(i -> (Object) null).toList());
  }

  @Override
  public void close() throws IOException, InterruptedException {
    try {
      server.shutdown().get(10, TimeUnit.SECONDS);
      server.exit();
    } catch (Exception e) {
      // The process is ended below either way.
    }
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
