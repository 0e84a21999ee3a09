package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.lsp4j.DidOpenTextDocumentParams;
import org.eclipse.lsp4j.InitializeParams;
import org.eclipse.lsp4j.InitializedParams;
import org.eclipse.lsp4j.MessageActionItem;
import org.eclipse.lsp4j.MessageParams;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.ShowMessageRequestParams;
import org.eclipse.lsp4j.TextDocumentItem;
import org.eclipse.lsp4j.jsonrpc.Launcher;
import org.eclipse.lsp4j.launch.LSPLauncher;
import org.eclipse.lsp4j.services.LanguageClient;
import org.eclipse.lsp4j.services.LanguageServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("slow")
class LspCommandTest {
  private static final long TIMEOUT_S = 30;

  @Test
  void helpDescribesStdioAndThePort() {
    CliRun r = CliRun.of("lsp", "--help");
    assertEquals(0, r.exit(), r.err());
    assertTrue(r.out().contains("\nUsage: hooklens lsp"), r.out());
    assertTrue(r.out().contains("--port=N"), r.out());
    assertTrue(r.out().contains("standard input and output"), r.out());
    assertTrue(r.out().contains("Exit codes:"), r.out());
    assertTrue(CliRun.of("--help").out().contains("lsp"), "listed by hooklens --help");
  }

  @Test
  void aPortOutOfRangeIsAUsageError() {
    CliRun r = CliRun.of("lsp", "--port", "70000");
    assertEquals(2, r.exit());
    assertTrue(r.err().contains("--port must be from 0 to 65535"), r.err());
    assertEquals(2, CliRun.of("lsp", "--port", "0", "--stdio").exit());
  }

  /** The first diagnostics a client receives. */
  private static final class FirstDiagnostics implements LanguageClient {
    final CompletableFuture<PublishDiagnosticsParams> diagnostics = new CompletableFuture<>();

    @Override
    public void publishDiagnostics(PublishDiagnosticsParams params) {
      diagnostics.complete(params);
    }

    @Override
    public void telemetryEvent(Object object) {
    }

    @Override
    public void showMessage(MessageParams messageParams) {
    }

    @Override
    public CompletableFuture<MessageActionItem> showMessageRequest(ShowMessageRequestParams requestParams) {
      return CompletableFuture.completedFuture(null);
    }

    @Override
    public void logMessage(MessageParams message) {
    }
  }

  /** Runs {@code hooklens} in a JVM of its own; its standard error goes to the test's unless asked for. */
  private static Process hooklens(ProcessBuilder.Redirect stderr, String... args) throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> command = new ArrayList<>(List.of(java.toString(), "-cp", System.getProperty("java.class.path"),
        Main.class.getName()));
    command.addAll(List.of(args));
    return new ProcessBuilder(command).redirectError(stderr).start();
  }

  /** Initializes, opens an over-budget Pod, waits for its diagnostics, and shuts the server down. */
  private static void lintOnePod(LanguageServer server, FirstDiagnostics client) throws Exception {
    server.initialize(new InitializeParams()).get(TIMEOUT_S, TimeUnit.SECONDS);
    server.initialized(new InitializedParams());
    server.getTextDocumentService().didOpen(new DidOpenTextDocumentParams(
        new TextDocumentItem("file:///work/pod.yaml", "yaml", 1, LintCommandTest.OVER_BUDGET)));
    PublishDiagnosticsParams p = client.diagnostics.get(TIMEOUT_S, TimeUnit.SECONDS);
    assertEquals("HL401", p.getDiagnostics().get(0).getCode().getLeft());
    server.shutdown().get(TIMEOUT_S, TimeUnit.SECONDS);
    server.exit();
  }

  @Test
  void aRealProcessServesOverStandardInputAndOutput() throws Exception {
    Process p = hooklens(ProcessBuilder.Redirect.INHERIT, "lsp");
    try {
      FirstDiagnostics client = new FirstDiagnostics();
      // Anything but protocol on standard output would break the client's reading of it.
      Launcher<LanguageServer> launcher = LSPLauncher.createClientLauncher(client, p.getInputStream(),
          p.getOutputStream());
      launcher.startListening();
      lintOnePod(launcher.getRemoteProxy(), client);
      assertTrue(p.waitFor(TIMEOUT_S, TimeUnit.SECONDS), "the server ends after exit");
      assertEquals(0, p.exitValue());
    } finally {
      p.destroyForcibly();
    }
  }

  @Test
  void aRealProcessServesOneClientOnAPort() throws Exception {
    Process p = hooklens(ProcessBuilder.Redirect.PIPE, "lsp", "--port", "0");
    try {
      BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8));
      Pattern listening = Pattern.compile("hooklens lsp: listening on 127\\.0\\.0\\.1:(\\d+)");
      Matcher m = null;
      for (String line = err.readLine(); line != null; line = err.readLine()) {
        m = listening.matcher(line);
        if (m.find()) {
          break;
        }
      }
      assertTrue(m != null && m.matches(), "the server says where it listens");
      try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), Integer.parseInt(m.group(1)))) {
        FirstDiagnostics client = new FirstDiagnostics();
        Launcher<LanguageServer> launcher = LSPLauncher.createClientLauncher(client, socket.getInputStream(),
            socket.getOutputStream());
        launcher.startListening();
        lintOnePod(launcher.getRemoteProxy(), client);
        assertTrue(p.waitFor(TIMEOUT_S, TimeUnit.SECONDS), "the server ends after exit");
        assertEquals(0, p.exitValue());
      }
    } finally {
      p.destroyForcibly();
    }
  }
}
