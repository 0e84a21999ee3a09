package io.hooklens.lsp;

import io.hooklens.core.engine.Config;
import io.hooklens.core.engine.LintResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DiagnosticSeverity;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.services.LanguageClient;

/**
 * Computes and publishes the diagnostics of open documents, off the protocol thread.
 *
 * <p>Each request to validate a document gets a generation number. A validation runs after the
 * debounce delay on a worker, and publishes only if it is still the newest generation of its document
 * and its snapshot is still the current text, checked under the store's lock so that no edit can land
 * between the check and the publication: a burst of edits yields the diagnostics of its last version
 * only, and never those of a version the client has already replaced. A superseded validation is
 * cancelled before it starts, or dropped when it ends; it is never interrupted, since an interrupt
 * could cut a message to the client in half.
 *
 * <p>A document is validated by one worker at a time. An edit that arrives while its document is being
 * validated is deferred, and the newest deferred one runs as soon as the running one ends: bursts of
 * edits coalesce even without a debounce delay, and no worker reads a version that is already stale.
 *
 * <p>Work on the whole workspace waits for open documents ({@link #awaitIdle}): what the user has open is what
 * they look at first.
 *
 * <p>A validation that fails still publishes: the findings that could be had, and one warning at the start of
 * the file saying that it was not fully checked (rules that failed are named), so that the client neither keeps
 * an older version's diagnostics nor shows a clean file. The cause goes to the logs.
 */
final class DiagnosticsService {
  /** The code of the diagnostic that says a file was not fully checked; no rule has it. */
  static final String NOT_CHECKED = "not-checked";

  private final DocumentStore store;
  private final Analyzer analyzer;
  private final ConfigService configs;
  private final DiagnosticConverter converter;
  private ChartCheckService charts;
  private final Supplier<LanguageClient> client;
  private final ClientLog log;
  private final ScheduledExecutorService executor;
  private final AtomicLong generations = new AtomicLong();
  private final ConcurrentMap<String, Long> newest = new ConcurrentHashMap<>();
  private final ConcurrentMap<String, ScheduledFuture<?>> pending = new ConcurrentHashMap<>();
  /** Documents a worker is validating now. Guarded by {@code this}. */
  private final Set<String> running = new HashSet<>();
  /** The generation to validate when a document's running validation ends. Guarded by {@code this}. */
  private final Map<String, Long> deferred = new HashMap<>();
  /** Validations scheduled and not yet ended, including those waiting for their delay. Guarded by {@code this}. */
  private int outstanding;

  DiagnosticsService(DocumentStore store, Analyzer analyzer, ConfigService configs, DiagnosticConverter converter,
      Supplier<LanguageClient> client, ClientLog log, ScheduledExecutorService executor) {
    this.store = store;
    this.analyzer = analyzer;
    this.configs = configs;
    this.converter = converter;
    this.client = client;
    this.log = log;
    this.executor = executor;
  }

  /** Takes the rendered chart's diagnostics into those of chart files. */
  void charts(ChartCheckService c) {
    charts = c;
  }

  /** Validates a document after the debounce delay: it is being edited. */
  void afterEdit(TextDocument doc) {
    schedule(doc.uri(), configs.settings().debounceMs());
  }

  /** Validates a document now: it was just opened. */
  void now(TextDocument doc) {
    schedule(doc.uri(), 0);
  }

  /** Validates every open document now: settings or a configuration file changed. */
  void all() {
    for (TextDocument doc : store.all()) {
      schedule(doc.uri(), 0);
    }
  }

  /** Forgets a closed document and clears its diagnostics in the client. */
  void closed(String uri) {
    ScheduledFuture<?> old;
    synchronized (this) {
      newest.remove(uri);
      deferred.remove(uri);
      old = pending.remove(uri);
    }
    if (old != null && old.cancel(false)) {
      ended();
    }
    analyzer.forget(uri);
    publish(new PublishDiagnosticsParams(uri, charts == null ? List.of() : charts.closed(uri)));
  }

  // One at a time: the chart renderer asks for validations from its own thread, and an edit's request must not
  // have its task cancelled by an older request that swaps in its task after it.
  private synchronized void schedule(String uri, long delayMs) {
    long generation = generations.incrementAndGet();
    newest.put(uri, generation);
    try {
      ScheduledFuture<?> task = executor.schedule(() -> validate(uri, generation), delayMs, TimeUnit.MILLISECONDS);
      outstanding++;
      ScheduledFuture<?> old = pending.put(uri, task);
      // A task cancelled before it started never runs to end itself.
      if (old != null && old.cancel(false)) {
        ended();
      }
    } catch (RejectedExecutionException e) {
      // The server is shutting down; nothing is published any more.
      log.info("not validating " + uri + ": the server is shutting down");
    }
  }

  private boolean isNewest(String uri, long generation) {
    Long n = newest.get(uri);
    return n != null && n == generation;
  }

  /**
   * Returns once no open document's validation is waiting or running, for work on the whole workspace to go on
   * with; at once when the thread is interrupted, its flag set again.
   */
  synchronized void awaitIdle() {
    try {
      while (outstanding > 0) {
        wait();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private synchronized void ended() {
    if (--outstanding == 0) {
      notifyAll();
    }
  }

  private void validate(String uri, long generation) {
    try {
      validateNewest(uri, generation);
    } finally {
      ended();
    }
  }

  private void validateNewest(String uri, long generation) {
    synchronized (this) {
      if (!isNewest(uri, generation)) {
        return;
      }
      if (!running.add(uri)) {
        deferred.put(uri, generation);
        return;
      }
    }
    try {
      check(uri, generation);
    } finally {
      Long next;
      synchronized (this) {
        running.remove(uri);
        next = deferred.remove(uri);
        if (next != null) {
          outstanding++;
        }
      }
      if (next != null) {
        long g = next;
        try {
          executor.execute(() -> validate(uri, g));
        } catch (RejectedExecutionException e) {
          // The server is shutting down; nothing is published any more.
          ended();
        }
      }
    }
  }

  private void check(String uri, long generation) {
    TextDocument doc = store.get(uri);
    if (doc == null || !isNewest(uri, generation)) {
      return;
    }
    List<Diagnostic> diagnostics;
    try {
      diagnostics = diagnostics(doc);
    } catch (RuntimeException | Error e) {
      // Whatever broke (the reader, a rule, the merge with the chart's), the client must not keep the diagnostics
      // of an older version as if they were this one's, nor show a clean file: it gets what can still be said.
      log.error("cannot check " + uri + " (version " + doc.version() + "); its diagnostics say so", e);
      diagnostics = new ArrayList<>(renderedOrNone(doc));
      diagnostics.add(notChecked("Hooklens could not check this file: an internal error stopped the analysis, so"
          + " its problems are not shown. The language server's log has the details."));
    }
    if (!isNewest(uri, generation)) {
      return;
    }
    List<Diagnostic> found = diagnostics;
    try {
      store.ifCurrent(doc, () -> {
        if (isNewest(uri, generation)) {
          publish(new PublishDiagnosticsParams(uri, found, doc.version()));
        }
      });
    } catch (RuntimeException e) {
      log.error("cannot publish the diagnostics of " + uri, e);
    }
  }

  /** The rendered chart's diagnostics of a document, or none when even those cannot be had. */
  private List<Diagnostic> renderedOrNone(TextDocument doc) {
    try {
      return charts == null ? List.of() : charts.diagnostics(doc);
    } catch (RuntimeException | Error e) {
      return List.of();
    }
  }

  /**
   * The diagnostic that says a file was not fully checked, at its start: an internal error, never a problem of
   * the file, but the user must not take the missing findings for a clean file.
   */
  static Diagnostic notChecked(String message) {
    Diagnostic d = new Diagnostic(new Range(new Position(0, 0), new Position(0, 0)), message,
        DiagnosticSeverity.Warning, DiagnosticConverter.SOURCE);
    d.setCode(Either.forLeft(NOT_CHECKED));
    return d;
  }

  /** The diagnostics of a snapshot: none for files that are not Kubernetes-like. */
  private List<Diagnostic> diagnostics(TextDocument doc) {
    Analyzer.Parsed parsed = analyzer.parse(doc);
    if (!parsed.kubernetesLike()) {
      // A values file Helm refuses still shows where.
      return charts == null ? List.of() : charts.diagnostics(doc);
    }
    Config config = configs.configFor(doc.uri());
    LintResult result = analyzer.lint(parsed, config);
    for (LintResult.RuleFailure f : result.failures()) {
      log.error("rule " + f.ruleId() + " failed on " + doc.uri() + " (version " + doc.version()
          + "); its findings are left out", f.error());
    }
    List<Diagnostic> own = new ArrayList<>(converter.convert(doc.uri(), result.findings(),
        new Positions(parsed.model().source(), doc.text())));
    if (!result.failures().isEmpty()) {
      own.add(notChecked(rulesFailed(result.failures(), "this file")));
    }
    List<Diagnostic> rendered = charts == null ? List.of() : charts.diagnostics(doc);
    if (rendered.isEmpty()) {
      return own;
    }
    // A finding both ways (a literal in a template) is shown once, as the document's own.
    List<Diagnostic> all = new ArrayList<>(own);
    for (Diagnostic d : rendered) {
      if (own.stream().noneMatch(o -> o.getRange().equals(d.getRange()) && Objects.equals(o.getCode(), d.getCode()))) {
        all.add(d);
      }
    }
    return all;
  }

  /** What the diagnostic of rules that failed says. */
  static String rulesFailed(List<LintResult.RuleFailure> failures, String where) {
    List<String> ids = failures.stream().map(LintResult.RuleFailure::ruleId).distinct().toList();
    boolean one = ids.size() == 1;
    return "Hooklens could not fully check " + where + ": " + (one ? "rule " : "rules ") + String.join(", ", ids)
        + " failed with an internal error, so " + (one ? "its" : "their")
        + " problems are not shown. The language server's log has the details.";
  }

  private void publish(PublishDiagnosticsParams params) {
    LanguageClient c = client.get();
    if (c != null) {
      c.publishDiagnostics(params);
    }
  }
}
