package io.hooklens.lsp;

import io.hooklens.core.engine.Config;
import io.hooklens.core.engine.Linter;
import io.hooklens.core.engine.RuleRegistry;
import io.hooklens.core.model.HookDocument;
import io.hooklens.rules.BuiltInRules;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.jsonrpc.json.MessageJsonHandler;
import org.eclipse.lsp4j.jsonrpc.messages.NotificationMessage;
import org.eclipse.lsp4j.jsonrpc.services.ServiceEndpoints;
import org.eclipse.lsp4j.services.LanguageClient;

/**
 * The first file's diagnostics, taken once on a thread of its own as the server starts: a fresh JVM loads and
 * first runs the reader, every family's rules, the lifecycle schema and the diagnostics' JSON for whatever file
 * comes first, which made its diagnostics wait. Done beside the server's own start-up, that wait is spent on
 * another core while the client is still starting.
 */
public final class WarmUp {
  private static final String RESOURCE = "warm-up.yaml";
  private static final String URI = "hooklens:warm-up.yaml";
  /**
   * Rounds until the first document arrives, so that the reader's and rules' hot methods are compiled before a
   * large first file and nothing competes with it. At most this many, for a server that gets none for a while.
   */
  private static final int MAX_ROUNDS = 40;
  private static volatile boolean wanted = true;

  private WarmUp() {}

  /** Starts the warm-up; the thread is a daemon, so that it never keeps the process alive. */
  public static void start() {
    Thread t = new Thread(() -> {
      try {
        publish();
      } catch (RuntimeException e) {
        // Only the first file's wait depends on it; the file itself is linted as always.
        Logger.getLogger("io.hooklens.lsp").log(Level.FINE, "warm-up failed", e);
      }
    }, "hooklens-warm-up");
    t.setDaemon(true);
    t.setPriority(Thread.MIN_PRIORITY);
    t.start();
  }

  /** Lints the bundled manifest as a document's first diagnostics are, and writes their notification's JSON. */
  static String publish() {
    RuleRegistry registry = BuiltInRules.registry();
    Linter linter = new Linter(registry);
    String text = text();
    DiagnosticConverter converter = new DiagnosticConverter(registry);
    List<Diagnostic> diagnostics = List.of();
    for (int i = 0; i < MAX_ROUNDS && (i == 0 || wanted); i++) {
      HookDocument model = linter.parse(RESOURCE, text);
      diagnostics = converter.convert(URI, linter.lint(model, Config.DEFAULT).findings(),
          new Positions(model.source(), text));
    }
    NotificationMessage message = new NotificationMessage();
    message.setMethod("textDocument/publishDiagnostics");
    message.setParams(new PublishDiagnosticsParams(URI, diagnostics));
    return new MessageJsonHandler(ServiceEndpoints.getSupportedMethods(LanguageClient.class)).serialize(message);
  }

  /** Ends the warm-up after its round in progress: a document to lint has arrived. */
  static void enough() {
    wanted = false;
  }

  private static String text() {
    try (InputStream in = WarmUp.class.getResourceAsStream(RESOURCE)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
