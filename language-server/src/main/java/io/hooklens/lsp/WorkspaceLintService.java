package io.hooklens.lsp;

import static io.hooklens.lsp.CommandAnswers.status;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.hooklens.app.ChartLint;
import io.hooklens.app.ConfigResolver;
import io.hooklens.app.Lint;
import io.hooklens.app.LintedFile;
import io.hooklens.core.engine.Linter;
import io.hooklens.core.engine.RuleRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.services.LanguageClient;

/**
 * {@code hooklens.lintWorkspace}: lints the workspace folders as saved, as {@code hooklens lint FOLDER} does
 * ({@link Lint}: the same walk, configuration files, excludes and chart renders), the editor's settings on top of
 * each configuration as for open documents, and publishes each file's diagnostics as it is linted. Open documents
 * keep their live diagnostics, which belong to their text in the editor. Answers with what it linted.
 *
 * <p>Open documents come first: the lint starts, and goes on to each next file, only when no open document's
 * validation is waiting or running, so that a document opened meanwhile gets its diagnostics as soon as if no lint
 * ran, on a machine with few cores too.
 */
final class WorkspaceLintService {
  static final String LINT_WORKSPACE = "hooklens.lintWorkspace";

  private final Linter linter;
  private final ConfigService configs;
  private final DocumentStore store;
  private final LintedDiagnostics diagnostics;
  private final Supplier<LanguageClient> client;
  private final Supplier<List<Path>> folders;
  private final ClientLog log;
  private final Runnable openDocumentsFirst;
  private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "hooklens-workspace-lint");
    t.setDaemon(true);
    return t;
  });

  WorkspaceLintService(Linter linter, ConfigService configs, DocumentStore store, LintedDiagnostics diagnostics,
      Supplier<LanguageClient> client, Supplier<List<Path>> folders, ClientLog log, Runnable openDocumentsFirst) {
    this.linter = linter;
    this.configs = configs;
    this.store = store;
    this.diagnostics = diagnostics;
    this.client = client;
    this.folders = folders;
    this.log = log;
    this.openDocumentsFirst = openDocumentsFirst;
  }

  /** Lints every workspace folder on a thread of its own; one lint at a time, in the order asked. */
  CompletableFuture<Object> execute() {
    try {
      return CompletableFuture.supplyAsync(this::lint, executor);
    } catch (RejectedExecutionException e) {
      return CompletableFuture.completedFuture(status("refused", "the server is shutting down"));
    }
  }

  void shutdown() {
    executor.shutdownNow();
  }

  private Object lint() {
    List<Path> roots = folders.get();
    if (roots.isEmpty()) {
      return shown(status("refused", "the workspace has no folder on disk to lint"));
    }
    Publisher publisher = new Publisher();
    RuleRegistry registry = linter.registry();
    Settings settings = configs.settings();
    Lint lint = new Lint(linter, new ConfigResolver(registry, null),
        new Lint.Options(c -> ConfigService.merge(c, settings, registry), ChartLint.Values.NONE, false), publisher);
    openDocumentsFirst.run();
    try {
      for (Path root : roots) {
        lint.path(root);
      }
    } catch (ConfigResolver.ConfigException e) {
      return shown(status("refused", e.getMessage()));
    } catch (RuntimeException | Error e) {
      log.error(LINT_WORKSPACE + " failed", e);
      return shown(status("failed", "the workspace lint failed: " + e.getMessage()));
    }
    JsonObject result = status("linted", null);
    result.addProperty("files", publisher.files);
    result.addProperty("findings", publisher.findings);
    JsonArray problems = new JsonArray();
    publisher.problems.forEach(problems::add);
    result.add("problems", problems);
    log.info(LINT_WORKSPACE + ": " + publisher.findings + " findings in " + publisher.files + " files");
    return result;
  }

  /** Publishes each file's diagnostics as the lint reports it. */
  private final class Publisher implements Lint.Sink {
    /**
     * What was published for files with findings, for a file a chart's render reports twice (its render failure,
     * then its findings on its own); the models are not kept.
     */
    private final Map<String, List<Diagnostic>> byUri = new HashMap<>();
    private final List<String> problems = new ArrayList<>();
    private int files;
    private int findings;

    @Override
    public void file(LintedFile f) {
      // The lint reads the next file only once this returns.
      openDocumentsFirst.run();
      Path path = f.path();
      String uri = path.toUri().toString();
      String text;
      try {
        text = LintedDiagnostics.shownText(path);
      } catch (IOException e) {
        log.warn(LINT_WORKSPACE + ": cannot read " + path + " again (" + e.getMessage() + "); its findings are left"
            + " out");
        return;
      }
      findings += f.result().findings().size();
      Path chart = f.valuesSets().isEmpty() ? null : ChartLint.chartOf(path).orElse(null);
      List<Diagnostic> shown = new ArrayList<>(byUri.getOrDefault(uri, List.of()));
      if (shown.isEmpty()) {
        files++;
      }
      shown.addAll(diagnostics.of(f, uri, text, chart));
      if (!shown.isEmpty()) {
        byUri.put(uri, shown);
      }
      LanguageClient c = client.get();
      if (c != null && store.get(uri) == null) {
        c.publishDiagnostics(new PublishDiagnosticsParams(uri, List.copyOf(shown)));
      }
    }

    @Override
    public void problem(String message) {
      problems.add(message);
      log.warn(LINT_WORKSPACE + ": " + message);
    }

    @Override
    public void note(String message) {
      log.info(LINT_WORKSPACE + ": " + message);
    }
  }

  /** A refusal or failure the user must see, not only the caller. */
  private JsonObject shown(JsonObject status) {
    return CommandAnswers.shown(log, LINT_WORKSPACE, status);
  }
}
