package io.hooklens.lsp;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.eclipse.lsp4j.ConfigurationParams;
import org.eclipse.lsp4j.MessageActionItem;
import org.eclipse.lsp4j.MessageParams;
import org.eclipse.lsp4j.ProgressParams;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.RegistrationParams;
import org.eclipse.lsp4j.ShowDocumentParams;
import org.eclipse.lsp4j.ShowDocumentResult;
import org.eclipse.lsp4j.ShowMessageRequestParams;
import org.eclipse.lsp4j.WorkDoneProgressCreateParams;
import org.eclipse.lsp4j.services.LanguageClient;

/**
 * The client end of a test session: records every message the server sends and lets a test wait,
 * with a deadline, until what it expects has arrived.
 */
final class RecordingClient implements LanguageClient {
  static final long TIMEOUT_MS = 20_000;

  private final List<PublishDiagnosticsParams> diagnostics = new ArrayList<>();
  private final List<MessageParams> logs = new ArrayList<>();
  private final List<MessageParams> shown = new ArrayList<>();
  private final List<RegistrationParams> registrations = new ArrayList<>();
  private final List<ShowMessageRequestParams> requests = new ArrayList<>();
  private final List<ProgressParams> progress = new ArrayList<>();
  private final List<ShowDocumentParams> documentsShown = new ArrayList<>();
  private volatile Function<ConfigurationParams, List<Object>> configuration = p -> null;
  private volatile Function<ShowMessageRequestParams, String> answer = p -> null;

  @Override
  public synchronized void publishDiagnostics(PublishDiagnosticsParams params) {
    diagnostics.add(params);
    notifyAll();
  }

  @Override
  public synchronized void logMessage(MessageParams message) {
    logs.add(message);
    notifyAll();
  }

  @Override
  public synchronized void showMessage(MessageParams message) {
    shown.add(message);
    notifyAll();
  }

  @Override
  public CompletableFuture<MessageActionItem> showMessageRequest(ShowMessageRequestParams params) {
    synchronized (this) {
      requests.add(params);
      notifyAll();
    }
    String title = answer.apply(params);
    return CompletableFuture.completedFuture(title == null ? null : new MessageActionItem(title));
  }

  @Override
  public CompletableFuture<Void> createProgress(WorkDoneProgressCreateParams params) {
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public synchronized void notifyProgress(ProgressParams params) {
    progress.add(params);
    notifyAll();
  }

  @Override
  public synchronized CompletableFuture<ShowDocumentResult> showDocument(ShowDocumentParams params) {
    documentsShown.add(params);
    notifyAll();
    return CompletableFuture.completedFuture(new ShowDocumentResult(true));
  }

  /** The title of the action the client picks for a {@code window/showMessageRequest}; null: dismissed. */
  void answerMessageRequests(Function<ShowMessageRequestParams, String> pick) {
    answer = pick;
  }

  synchronized List<ShowMessageRequestParams> messageRequests() {
    return List.copyOf(requests);
  }

  synchronized List<ProgressParams> progress() {
    return List.copyOf(progress);
  }

  synchronized List<ShowDocumentParams> documentsShown() {
    return List.copyOf(documentsShown);
  }

  @Override
  public void telemetryEvent(Object object) {
  }

  @Override
  public synchronized CompletableFuture<Void> registerCapability(RegistrationParams params) {
    registrations.add(params);
    notifyAll();
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public CompletableFuture<List<Object>> configuration(ConfigurationParams params) {
    return CompletableFuture.completedFuture(configuration.apply(params));
  }

  /** What the client answers to {@code workspace/configuration}. */
  void answerConfiguration(Function<ConfigurationParams, List<Object>> answer) {
    configuration = answer;
  }

  /** Every publication for a URI so far, oldest first. */
  synchronized List<PublishDiagnosticsParams> publications(String uri) {
    return diagnostics.stream().filter(p -> p.getUri().equals(uri)).toList();
  }

  /** Every publication so far, in the order received. */
  synchronized List<PublishDiagnosticsParams> allPublications() {
    return List.copyOf(diagnostics);
  }

  /** The last publication for each URI so far. */
  synchronized Map<String, PublishDiagnosticsParams> lastPublications() {
    Map<String, PublishDiagnosticsParams> last = new LinkedHashMap<>();
    diagnostics.forEach(p -> last.put(p.getUri(), p));
    return last;
  }

  synchronized List<MessageParams> logs() {
    return List.copyOf(logs);
  }

  synchronized List<MessageParams> shown() {
    return List.copyOf(shown);
  }

  synchronized List<RegistrationParams> registrations() {
    return List.copyOf(registrations);
  }

  /** Waits until the newest publication for a URI satisfies a condition, and returns it. */
  PublishDiagnosticsParams awaitDiagnostics(String uri, Predicate<PublishDiagnosticsParams> condition) {
    return await(() -> {
      List<PublishDiagnosticsParams> mine = publications(uri);
      PublishDiagnosticsParams last = mine.isEmpty() ? null : mine.get(mine.size() - 1);
      return last != null && condition.test(last) ? last : null;
    }, () -> "diagnostics for " + uri + "; received: " + publications(uri));
  }

  /** Waits for the diagnostics of one version of a document. */
  PublishDiagnosticsParams awaitDiagnostics(String uri, int version) {
    return awaitDiagnostics(uri, p -> p.getVersion() != null && p.getVersion() == version);
  }

  /** Waits until a log message satisfies a condition. */
  MessageParams awaitLog(Predicate<MessageParams> condition) {
    return await(() -> logs().stream().filter(condition).findFirst().orElse(null), () -> "log; received " + logs());
  }

  /** Waits until a shown message satisfies a condition. */
  MessageParams awaitShown(Predicate<MessageParams> condition) {
    return await(() -> shown().stream().filter(condition).findFirst().orElse(null),
        () -> "shown message; received " + shown());
  }

  <T> T await(Supplier<T> probe, Supplier<String> what) {
    long deadline = System.nanoTime() + TIMEOUT_MS * 1_000_000;
    synchronized (this) {
      while (true) {
        T found = probe.get();
        if (found != null) {
          return found;
        }
        long left = (deadline - System.nanoTime()) / 1_000_000;
        if (left <= 0) {
          return fail("timed out after " + TIMEOUT_MS + " ms waiting for " + what.get());
        }
        try {
          wait(left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return fail("interrupted while waiting for " + what.get());
        }
      }
    }
  }
}
