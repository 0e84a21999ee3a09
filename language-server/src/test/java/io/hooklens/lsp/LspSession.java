package io.hooklens.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.hooklens.core.engine.RuleRegistry;
import io.hooklens.rules.BuiltInRules;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.eclipse.lsp4j.ClientCapabilities;
import org.eclipse.lsp4j.DidChangeTextDocumentParams;
import org.eclipse.lsp4j.DidOpenTextDocumentParams;
import org.eclipse.lsp4j.DocumentSymbol;
import org.eclipse.lsp4j.DocumentSymbolParams;
import org.eclipse.lsp4j.InitializeParams;
import org.eclipse.lsp4j.InitializeResult;
import org.eclipse.lsp4j.InitializedParams;
import org.eclipse.lsp4j.SymbolInformation;
import org.eclipse.lsp4j.TextDocumentContentChangeEvent;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.eclipse.lsp4j.TextDocumentItem;
import org.eclipse.lsp4j.VersionedTextDocumentIdentifier;
import org.eclipse.lsp4j.WorkspaceFolder;
import org.eclipse.lsp4j.jsonrpc.Launcher;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.launch.LSPLauncher;
import org.eclipse.lsp4j.services.LanguageServer;

/**
 * A Hooklens server and a recording client joined by two pipes, talking real JSON-RPC as an editor
 * would: every message is serialised, framed, read and dispatched by lsp4j on both sides.
 */
final class LspSession implements AutoCloseable {
  private static final int PIPE_BYTES = 1 << 20;

  final HooklensLanguageServer server;
  final RecordingClient client = new RecordingClient();
  final LanguageServer remote;
  final InitializeResult initialized;
  private final CompletableFuture<Integer> run = new CompletableFuture<>();
  private final OutputStream clientOut;

  private LspSession(RuleRegistry registry, Object initializationOptions, Consumer<ClientCapabilities> capabilities,
      Consumer<RecordingClient> beforeInitialize, List<WorkspaceFolder> folders) {
    try {
      Pipe toServer = new Pipe(PIPE_BYTES);
      InputStream serverIn = toServer.in;
      clientOut = toServer.out;
      Pipe toClient = new Pipe(PIPE_BYTES);
      InputStream clientIn = toClient.in;
      OutputStream serverOut = toClient.out;
      server = new HooklensLanguageServer(registry, "test");
      Thread serving = new Thread(() -> {
        try {
          run.complete(LanguageServerRunner.serve(server, serverIn, serverOut));
        } catch (RuntimeException | Error e) {
          run.completeExceptionally(e);
        }
      }, "test-server");
      serving.setDaemon(true);
      serving.start();
      beforeInitialize.accept(client);
      Launcher<LanguageServer> launcher = LSPLauncher.createClientLauncher(client, clientIn, clientOut);
      launcher.startListening();
      remote = launcher.getRemoteProxy();
      InitializeParams init = new InitializeParams();
      ClientCapabilities caps = new ClientCapabilities();
      capabilities.accept(caps);
      init.setCapabilities(caps);
      init.setInitializationOptions(initializationOptions);
      init.setWorkspaceFolders(folders);
      initialized = remote.initialize(init).get(RecordingClient.TIMEOUT_MS, TimeUnit.MILLISECONDS);
      remote.initialized(new InitializedParams());
    } catch (Exception e) {
      throw new IllegalStateException("the session did not start", e);
    }
  }

  static LspSession start() {
    return start(json("{\"hooklens\": {\"debounceMs\": 0}}"));
  }

  static LspSession start(Object initializationOptions) {
    return new LspSession(BuiltInRules.registry(), initializationOptions, c -> { }, c -> { }, null);
  }

  /** A session whose workspace is these folders. */
  static LspSession inFolders(Path... folders) {
    return new LspSession(BuiltInRules.registry(), json("{\"hooklens\": {\"debounceMs\": 0}}"), c -> { }, c -> { },
        Arrays.stream(folders).map(f -> new WorkspaceFolder(f.toUri().toString(), f.getFileName().toString()))
            .toList());
  }

  static LspSession start(RuleRegistry registry, Object initializationOptions,
      Consumer<ClientCapabilities> capabilities, Consumer<RecordingClient> beforeInitialize) {
    return new LspSession(registry, initializationOptions, capabilities, beforeInitialize, null);
  }

  static JsonObject json(String text) {
    return JsonParser.parseString(text).getAsJsonObject();
  }

  void open(String uri, String languageId, String text) {
    remote.getTextDocumentService().didOpen(new DidOpenTextDocumentParams(new TextDocumentItem(uri, languageId, 1,
        text)));
  }

  void change(String uri, int version, TextDocumentContentChangeEvent... changes) {
    remote.getTextDocumentService().didChange(new DidChangeTextDocumentParams(
        new VersionedTextDocumentIdentifier(uri, version), List.of(changes)));
  }

  List<DocumentSymbol> symbols(String uri) throws Exception {
    List<Either<SymbolInformation, DocumentSymbol>> result = remote.getTextDocumentService()
        .documentSymbol(new DocumentSymbolParams(new TextDocumentIdentifier(uri)))
        .get(RecordingClient.TIMEOUT_MS, TimeUnit.MILLISECONDS);
    return result.stream().map(Either::getRight).toList();
  }

  /** Shuts the server down as a client does, and checks that it ends with code 0. */
  @Override
  public void close() throws Exception {
    remote.shutdown().get(RecordingClient.TIMEOUT_MS, TimeUnit.MILLISECONDS);
    remote.exit();
    assertEquals(0, run.get(RecordingClient.TIMEOUT_MS, TimeUnit.MILLISECONDS));
  }

  /** Closes the client's end of the connection without shutdown or exit, as a crashed editor does. */
  int hangUp() throws Exception {
    clientOut.close();
    return run.get(RecordingClient.TIMEOUT_MS, TimeUnit.MILLISECONDS);
  }

  /** Sends exit without shutdown. */
  int exitWithoutShutdown() throws Exception {
    remote.exit();
    return run.get(RecordingClient.TIMEOUT_MS, TimeUnit.MILLISECONDS);
  }
}
