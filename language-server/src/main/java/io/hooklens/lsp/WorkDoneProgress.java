package io.hooklens.lsp;

import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;
import org.eclipse.lsp4j.ClientCapabilities;
import org.eclipse.lsp4j.ProgressParams;
import org.eclipse.lsp4j.WorkDoneProgressBegin;
import org.eclipse.lsp4j.WorkDoneProgressCreateParams;
import org.eclipse.lsp4j.WorkDoneProgressEnd;
import org.eclipse.lsp4j.WorkDoneProgressNotification;
import org.eclipse.lsp4j.WorkDoneProgressReport;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.services.LanguageClient;

/**
 * Work-done progress of one command, when the client takes it ({@code $/progress}): the client's token, or one
 * the server creates.
 */
final class WorkDoneProgress {
  private final Supplier<LanguageClient> client;
  private final Supplier<ClientCapabilities> capabilities;
  private final ClientLog log;
  private final String prefix;
  private String token;

  /**
   * @param given the client's token, or null
   * @param prefix what a token the server creates starts with
   */
  WorkDoneProgress(Supplier<LanguageClient> client, Supplier<ClientCapabilities> capabilities, ClientLog log,
      String given, String prefix) {
    this.client = client;
    this.capabilities = capabilities;
    this.log = log;
    this.token = given;
    this.prefix = prefix;
  }

  void begin(String title) {
    LanguageClient c = client.get();
    ClientCapabilities caps = capabilities.get();
    boolean supported = caps != null && caps.getWindow() != null
        && Boolean.TRUE.equals(caps.getWindow().getWorkDoneProgress());
    if (c == null || (token == null && !supported)) {
      token = null;
      return;
    }
    if (token == null) {
      String created = prefix + UUID.randomUUID();
      try {
        c.createProgress(new WorkDoneProgressCreateParams(Either.forLeft(created))).get();
        token = created;
      } catch (ExecutionException e) {
        log.warn("the client refused a progress token: " + e.getCause());
        return;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    WorkDoneProgressBegin begin = new WorkDoneProgressBegin();
    begin.setTitle(title);
    begin.setCancellable(false);
    send(begin);
  }

  void report(String message) {
    WorkDoneProgressReport report = new WorkDoneProgressReport();
    report.setMessage(message);
    send(report);
  }

  void end(String message) {
    WorkDoneProgressEnd end = new WorkDoneProgressEnd();
    end.setMessage(message);
    send(end);
  }

  private void send(WorkDoneProgressNotification notification) {
    LanguageClient c = client.get();
    if (token != null && c != null) {
      c.notifyProgress(new ProgressParams(Either.forLeft(token), Either.forLeft(notification)));
    }
  }
}
