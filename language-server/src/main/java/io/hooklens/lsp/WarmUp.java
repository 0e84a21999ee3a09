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
   * Enough rounds that the reader's and rules' hot methods are compiled before a large first file: measured on 2
   * cores, 10 rounds took the first diagnostics of a 5,000-line file from 0.34 s to 0.25 s after its didOpen, the
   * time from the server's start to them unchanged; 40 rounds lengthened that.
   */
  private static final int ROUNDS = 10;

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
    for (int i = 0; i < ROUNDS; i++) {
      HookDocument model = linter.parse(RESOURCE, text);
      diagnostics = converter.convert(URI, linter.lint(model, Config.DEFAULT).findings(),
          new Positions(model.source(), text));
    }
    NotificationMessage message = new NotificationMessage();
    message.setMethod("textDocument/publishDiagnostics");
    message.setParams(new PublishDiagnosticsParams(URI, diagnostics));
    return new MessageJsonHandler(ServiceEndpoints.getSupportedMethods(LanguageClient.class)).serialize(message);
  }

  private static String text() {
    try (InputStream in = WarmUp.class.getResourceAsStream(RESOURCE)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
