package io.hooklens.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.rules.BuiltInRules;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.DidOpenTextDocumentParams;
import org.eclipse.lsp4j.InitializeParams;
import org.eclipse.lsp4j.InitializedParams;
import java.util.List;
import org.eclipse.lsp4j.ServerCapabilities;
import org.eclipse.lsp4j.TextDocumentItem;
import org.eclipse.lsp4j.TextDocumentSyncKind;
import org.eclipse.lsp4j.TextDocumentSyncOptions;
import org.eclipse.lsp4j.jsonrpc.Launcher;
import org.eclipse.lsp4j.launch.LSPLauncher;
import org.eclipse.lsp4j.services.LanguageServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** What the server announces, how it ends, and serving over a socket. */
@Tag("slow")
class ServerLifecycleTest {
  @Test
  void itAdvertisesIncrementalSyncSymbolsCodeActionsAndCodeLensesAndNothingItDoesNotDo() throws Exception {
    try (LspSession session = LspSession.start()) {
      ServerCapabilities caps = session.initialized.getCapabilities();
      TextDocumentSyncOptions sync = caps.getTextDocumentSync().getRight();
      assertEquals(TextDocumentSyncKind.Incremental, sync.getChange());
      assertTrue(sync.getOpenClose());
      assertTrue(caps.getDocumentSymbolProvider().getLeft());
      assertEquals(HookAssist.TRIGGERS, caps.getCompletionProvider().getTriggerCharacters());
      assertTrue(caps.getHoverProvider().getLeft());
      assertEquals(List.of("quickfix", "refactor.rewrite", "source.fixAll.hooklens"),
          caps.getCodeActionProvider().getRight().getCodeActionKinds());
      // Only for clients that declare inlay hints (InlayHintsTest).
      assertNull(caps.getInlayHintProvider());
      // Code lenses above hooks, behind the one command that runs them (RunHookCommandTest).
      assertFalse(caps.getCodeLensProvider().getResolveProvider());
      assertEquals(List.of("hooklens.runHook", "hooklens.lintWorkspace"), caps.getExecuteCommandProvider().getCommands());
      assertNull(caps.getDefinitionProvider());
      assertNull(caps.getDocumentFormattingProvider());
      assertEquals("hooklens", session.initialized.getServerInfo().getName());
    }
  }

  @Test
  void exitWithoutShutdownEndsWithOne() throws Exception {
    LspSession session = LspSession.start();
    assertEquals(1, session.exitWithoutShutdown());
  }

  @Test
  void aClientThatHangsUpEndsTheServer() throws Exception {
    LspSession session = LspSession.start();
    session.open("file:///work/pod.yaml", "yaml", DiagnosticsTest.POD);
    session.client.awaitDiagnostics("file:///work/pod.yaml", 1);
    assertEquals(1, session.hangUp());
  }

  @Test
  void aSocketServesOneClientOnTheLoopbackInterface() throws Exception {
    CompletableFuture<Integer> port = new CompletableFuture<>();
    CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> {
      try {
        return LanguageServerRunner.serveSocket(BuiltInRules.registry(), "test", 0, port::complete);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    RecordingClient client = new RecordingClient();
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(),
        port.get(RecordingClient.TIMEOUT_MS, TimeUnit.MILLISECONDS))) {
      Launcher<LanguageServer> launcher = LSPLauncher.createClientLauncher(client, socket.getInputStream(),
          socket.getOutputStream());
      launcher.startListening();
      LanguageServer server = launcher.getRemoteProxy();
      server.initialize(new InitializeParams()).get(RecordingClient.TIMEOUT_MS, TimeUnit.MILLISECONDS);
      server.initialized(new InitializedParams());
      server.getTextDocumentService().didOpen(new DidOpenTextDocumentParams(
          new TextDocumentItem("file:///work/pod.yaml", "yaml", 1, DiagnosticsTest.POD)));
      DiagnosticsTest.only(client.awaitDiagnostics("file:///work/pod.yaml", 1).getDiagnostics(), "HL401");
      server.shutdown().get(RecordingClient.TIMEOUT_MS, TimeUnit.MILLISECONDS);
      server.exit();
      assertEquals(0, exit.get(RecordingClient.TIMEOUT_MS, TimeUnit.MILLISECONDS));
    }
  }
}
