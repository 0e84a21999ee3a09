package io.hooklens.lsp;

import io.hooklens.app.ChartLint;
import io.hooklens.app.ConfigResolver;
import io.hooklens.app.LintedFile;
import io.hooklens.core.engine.Config;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.services.LanguageClient;

/**
 * Chart-wide diagnostics: when a file of a Helm chart is opened or saved, renders the chart as saved with real
 * Helm, once per values set ({@code values.yaml}, each {@code ci/*-values.yaml}, and the {@code helm.values} of
 * the settings or {@code .hooklens.yaml}, with {@code helm.set} on all), exactly as {@code hooklens lint CHART}
 * does, and reports each finding on the template line it comes from, naming the values sets that produce it.
 *
 * <p>A template read on its own can say little where values decide (a grace period of {@code {{ .Values.x }}}
 * is unknown there); the rendered chart knows. These findings belong to the text on disk: an open document
 * shows them while its text is the saved one, and loses them on its first edit until it is saved again. Files
 * that are not open get them too, so saving {@code values.yaml} shows what it does to every template.
 * Renders run on one thread of their own, a short while after the last save, so typing never waits on Helm, and
 * start only when no open document's validation is waiting or running: what the user has open comes first.
 * A render that fails leaves none of the chart's older findings behind: its Chart.yaml gets one warning that
 * the chart could not be checked, and rules that failed on the rendered chart are named there too. Where Helm
 * does not render the chart (it cannot run here, a library chart, no values set renders), its files are linted
 * one by one as {@code hooklens lint} does ({@link ChartLint}).
 */
final class ChartCheckService {
  private static final long DELAY_MS = 300;
  private static final String CHART_YAML = "Chart.yaml";

  /** What a render found in one file, and the text it was found in. */
  private record Rendered(String text, List<Diagnostic> diagnostics) {}

  private final DocumentStore store;
  private final ConfigService configs;
  private final LintedDiagnostics linted;
  private final ChartLint charts;
  private final Supplier<LanguageClient> client;
  private final ClientLog log;
  private final Consumer<TextDocument> revalidate;
  private final Runnable openDocumentsFirst;
  private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "hooklens-charts");
    t.setDaemon(true);
    return t;
  });
  private final Map<Path, ScheduledFuture<?>> pending = new ConcurrentHashMap<>();
  private final Map<String, Rendered> byUri = new ConcurrentHashMap<>();
  /** The files each chart's last render reported on. Touched by the render thread only. */
  private final Map<Path, Set<String>> urisByChart = new HashMap<>();

  /**
   * @param revalidate checks an open document again, so that its diagnostics take the new render's in
   * @param openDocumentsFirst returns once no open document's validation is waiting or running
   */
  ChartCheckService(DocumentStore store, ConfigService configs, LintedDiagnostics linted, ChartLint charts,
      Supplier<LanguageClient> client, ClientLog log, Consumer<TextDocument> revalidate, Runnable openDocumentsFirst) {
    this.store = store;
    this.configs = configs;
    this.linted = linted;
    this.charts = charts;
    this.client = client;
    this.log = log;
    this.revalidate = revalidate;
    this.openDocumentsFirst = openDocumentsFirst;
  }

  /** A file was opened or saved: if it belongs to a chart, the chart is rendered again. */
  void touched(String uri) {
    Path file = ConfigService.path(uri);
    if (file != null) {
      ChartLint.chartOf(file).ifPresent(this::schedule);
    }
  }

  /** Every chart rendered so far is rendered again: settings or a configuration file changed. */
  void all() {
    List<Path> known;
    synchronized (urisByChart) {
      known = List.copyOf(urisByChart.keySet());
    }
    known.forEach(this::schedule);
  }

  /** The rendered diagnostics of an open document, while its text is the one they were found in. */
  List<Diagnostic> diagnostics(TextDocument doc) {
    Rendered r = byUri.get(doc.uri());
    return r != null && r.text().equals(doc.text()) ? r.diagnostics() : List.of();
  }

  /** What the client shows for a file once it is closed: its rendered diagnostics, if any. */
  List<Diagnostic> closed(String uri) {
    Rendered r = byUri.get(uri);
    return r == null ? List.of() : r.diagnostics();
  }

  void shutdown() {
    executor.shutdownNow();
  }

  private void schedule(Path chart) {
    try {
      ScheduledFuture<?> task = executor.schedule(() -> render(chart), DELAY_MS, TimeUnit.MILLISECONDS);
      ScheduledFuture<?> old = pending.put(chart, task);
      if (old != null) {
        old.cancel(false);
      }
    } catch (RejectedExecutionException e) {
      // The server is shutting down.
    }
  }

  private void render(Path chart) {
    openDocumentsFirst.run();
    pending.remove(chart);
    try {
      show(chart, check(chart));
    } catch (RuntimeException | Error e) {
      // Nothing may end a render silently: the executor would keep the exception to itself.
      log.error("cannot check chart " + chart, e);
    }
  }

  /**
   * What a render of a chart found, by URI. A render that fails leaves no finding of an older render behind: the
   * chart's Chart.yaml says instead that the chart could not be checked.
   */
  private Map<String, Rendered> check(Path chart) {
    Map<String, Rendered> found = new HashMap<>();
    // Open documents keep the URI their client spelled, which may differ from Path.toUri's.
    Map<Path, String> openUris = new HashMap<>();
    for (TextDocument doc : store.all()) {
      Path p = ConfigService.path(doc.uri());
      if (p != null) {
        openUris.put(p, doc.uri());
      }
    }
    Path chartYaml = chart.resolve(CHART_YAML);
    try {
      Config config = configs.configFor(chartYaml.toUri().toString());
      long start = System.nanoTime();
      ChartLint.Outcome outcome = charts.lint(chart, ChartLint.Values.NONE, config,
          ChartLint.everything(file -> configs.configFor(file.toUri().toString())));
      outcome.helmUnavailable().ifPresent(why -> log.info("chart " + chart + " is not rendered: " + why));
      outcome.problems().forEach(p -> log.warn("chart " + chart + ": " + p));
      outcome.notes().forEach(n -> log.info("chart " + chart + ": " + n));
      for (LintedFile f : outcome.files()) {
        Path path = f.path();
        String uri = openUris.getOrDefault(path, path.toUri().toString());
        String text;
        try {
          text = LintedDiagnostics.shownText(path);
        } catch (IOException e) {
          // Gone or unreadable since the render: there is no text left to show its findings in.
          log.warn("chart " + chart + ": cannot read " + path + " again (" + e.getMessage() + "); its findings are"
              + " left out");
          continue;
        }
        // A template Helm fails on has its render failure and, linted on its own, its other findings.
        List<Diagnostic> diagnostics = new ArrayList<>(linted.of(f, uri, text, chart));
        Rendered earlier = found.get(uri);
        if (earlier != null) {
          diagnostics.addAll(0, earlier.diagnostics());
        }
        found.put(uri, new Rendered(text, diagnostics));
      }
      log.info("chart " + chart + " checked with " + outcome.valuesSets() + " values sets in "
          + (System.nanoTime() - start) / 1_000_000 + " ms");
    } catch (IOException | ConfigResolver.ConfigException e) {
      found.clear();
      log.warn("cannot render chart " + chart + ": " + e.getMessage());
      notRendered(chartYaml, openUris, found, "Hooklens could not render this chart to check it: " + e.getMessage()
          + ". Its templates keep their own checks.");
    } catch (RuntimeException | Error e) {
      found.clear();
      log.error("cannot render chart " + chart + "; its Chart.yaml says so", e);
      notRendered(chartYaml, openUris, found, "Hooklens could not check this chart: an internal error stopped the"
          + " render, so the problems only the rendered chart shows are not shown. Its templates keep their own"
          + " checks. The language server's log has the details.");
    }
    return found;
  }

  /** What a chart that could not be rendered shows: one diagnostic at the start of its Chart.yaml. */
  private static void notRendered(Path chartYaml, Map<Path, String> openUris, Map<String, Rendered> found,
      String message) {
    String text;
    try {
      text = LintedDiagnostics.shownText(chartYaml);
    } catch (IOException | RuntimeException e) {
      text = "";
    }
    found.put(openUris.getOrDefault(chartYaml, chartYaml.toUri().toString()),
        new Rendered(text, List.of(DiagnosticsService.notChecked(message))));
  }

  /** Replaces what the chart's last render showed with what this one found, open documents and others. */
  private void show(Path chart, Map<String, Rendered> found) {
    Set<String> previous;
    synchronized (urisByChart) {
      previous = urisByChart.put(chart, new HashSet<>(found.keySet()));
    }
    Set<String> touched = new HashSet<>(found.keySet());
    if (previous != null) {
      touched.addAll(previous);
      previous.stream().filter(u -> !found.containsKey(u)).forEach(byUri::remove);
    }
    byUri.putAll(found);
    for (String uri : touched) {
      try {
        TextDocument open = store.get(uri);
        if (open != null) {
          revalidate.accept(open);
        } else {
          publish(uri, found.containsKey(uri) ? found.get(uri).diagnostics() : List.of());
        }
      } catch (RuntimeException e) {
        log.error("cannot show the chart's diagnostics of " + uri, e);
      }
    }
  }

  private void publish(String uri, List<Diagnostic> diagnostics) {
    LanguageClient c = client.get();
    if (c != null) {
      c.publishDiagnostics(new PublishDiagnosticsParams(uri, Objects.requireNonNull(diagnostics)));
    }
  }
}
