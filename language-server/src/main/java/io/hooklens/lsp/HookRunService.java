package io.hooklens.lsp;

import static io.hooklens.lsp.CommandAnswers.status;

import io.hooklens.app.ChartLint;
import io.hooklens.app.HookRuns;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.hooklens.core.engine.Linter;
import io.hooklens.core.model.Container;
import io.hooklens.core.model.Handler;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.helm.HookPlan;
import io.hooklens.core.model.openshift.DcHook;
import io.hooklens.core.text.Printable;
import io.hooklens.run.Runner;
import io.hooklens.run.Selection;
import io.hooklens.run.report.JsonReport;
import io.hooklens.run.report.RunReport;
import io.hooklens.run.report.SvgTimeline;
import io.hooklens.run.report.TextReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.eclipse.lsp4j.ClientCapabilities;
import org.eclipse.lsp4j.CodeLens;
import org.eclipse.lsp4j.Command;
import org.eclipse.lsp4j.ExecuteCommandParams;
import org.eclipse.lsp4j.MessageActionItem;
import org.eclipse.lsp4j.MessageParams;
import org.eclipse.lsp4j.MessageType;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.ProgressParams;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.ShowDocumentParams;
import org.eclipse.lsp4j.ShowMessageRequestParams;
import org.eclipse.lsp4j.WorkDoneProgressBegin;
import org.eclipse.lsp4j.WorkDoneProgressCreateParams;
import org.eclipse.lsp4j.WorkDoneProgressEnd;
import org.eclipse.lsp4j.WorkDoneProgressNotification;
import org.eclipse.lsp4j.WorkDoneProgressReport;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.services.LanguageClient;

/**
 * Runs hooks on the embedded cluster for the editor ({@code hooklens.runHook}, behind the code lenses): a
 * container's hooks (above {@code postStart:} and {@code preStop:}), a Helm event's hooks (on each
 * {@code helm.sh/hook} value of a rendered manifest, {@code kind: helm}) and a DeploymentConfig's rollout (on
 * its first hook that runs, {@code kind: rollout}). Nothing runs until the user answers "Run" to
 * a {@code window/showMessageRequest} that lists every command; progress goes to {@code $/progress} when
 * the client takes it, the verdicts and the SVG's path to {@code window/showMessage}, the whole text
 * report (timelines included) to the log. One run at a time.
 */
final class HookRunService {
  static final String RUN_HOOK = "hooklens.runHook";
  static final String RUN = "Run";
  static final String CANCEL = "Cancel";
  private static final String CHART_YAML = "Chart.yaml";
  /** The {@code kind} of a run: container hooks (the default), a Helm event, a DeploymentConfig rollout. */
  static final String HELM = "helm";
  static final String ROLLOUT = "rollout";
  private static final int LOG_WIDTH = 100;

  private final DocumentStore store;
  private final Analyzer analyzer;
  private final ConfigService configs;
  private final ClientLog log;
  private final Supplier<LanguageClient> client;
  private final Supplier<ClientCapabilities> capabilities;
  private final AtomicBoolean busy = new AtomicBoolean();
  private final HookRuns runs;
  private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "hooklens-run");
    t.setDaemon(true);
    return t;
  });

  HookRunService(DocumentStore store, Analyzer analyzer, HookRuns runs, ConfigService configs, ClientLog log,
      Supplier<LanguageClient> client, Supplier<ClientCapabilities> capabilities) {
    this.store = store;
    this.runs = runs;
    this.analyzer = analyzer;
    this.configs = configs;
    this.log = log;
    this.client = client;
    this.capabilities = capabilities;
  }

  /**
   * The lenses of a document: above each hook of a regular container, run it; above preStop, its timeline; on
   * each Helm hook's events, run the event (in a chart template, the chart's event, rendered); on a
   * DeploymentConfig, run its rollout.
   */
  List<CodeLens> lenses(TextDocument doc) {
    Analyzer.Parsed parsed = analyzer.parse(doc);
    HookDocument model = parsed.model();
    List<CodeLens> lenses = new ArrayList<>();
    if (!parsed.kubernetesLike()) {
      return lenses;
    }
    Positions positions = new Positions(model.source(), doc.text());
    if (model.parsed().templated()) {
      // A template's values exist only once Helm renders its chart: only the chart's Helm events can run.
      Path file = ConfigService.path(doc.uri());
      Optional<Path> chart = file == null ? Optional.empty() : ChartLint.chartOf(file);
      chart.ifPresent(dir -> helmLenses(doc, model, positions, dir, lenses));
      return lenses;
    }
    for (Handler h : model.handlers()) {
      Container c = h.container();
      if (c.kind() != Container.Kind.REGULAR || c.name() == null || model.resourceOf(h.key()) == null) {
        continue;
      }
      String field = h.hook().field();
      lenses.add(new CodeLens(positions.range(h.key().range()),
          new Command("▶ Run " + field + " locally", RUN_HOOK, List.of(arguments(doc.uri(), h, field, "report"))),
          null));
      if ("preStop".equals(field)) {
        lenses.add(new CodeLens(positions.range(h.key().range()),
            new Command("Show termination timeline", RUN_HOOK, List.of(arguments(doc.uri(), h, Selection.ALL,
                "timeline"))), null));
      }
    }
    helmLenses(doc, model, positions, null, lenses);
    for (Resource r : model.resources()) {
      DcHook first = DcHook.of(r).stream().filter(DcHook::runsOnRollout).findFirst().orElse(null);
      if (DcHook.isDeploymentConfig(r) && first != null) {
        JsonObject args = new JsonObject();
        args.addProperty("uri", doc.uri());
        args.addProperty("kind", ROLLOUT);
        args.addProperty("resource", "DeploymentConfig/" + r.name());
        args.addProperty("show", "report");
        lenses.add(new CodeLens(positions.range(first.key().range()), new Command("▶ Run rollout hooks locally",
            RUN_HOOK, List.of(args)), null));
      }
    }
    return lenses;
  }

  /**
   * One lens per Helm hook and event, on the {@code helm.sh/hook} value; each runs the whole event, as Helm does,
   * of this file or, in a template, of its chart.
   */
  private static void helmLenses(TextDocument doc, HookDocument model, Positions positions, Path chart,
      List<CodeLens> lenses) {
    Set<String> seen = new HashSet<>();
    for (HookPlan.Event event : HookPlan.of(model)) {
      for (HookPlan.Step step : event.steps()) {
        if (seen.add(step.source() + " " + event.name())) {
          JsonObject args = new JsonObject();
          args.addProperty("uri", doc.uri());
          args.addProperty("kind", HELM);
          args.addProperty("event", event.name());
          args.addProperty("show", "report");
          if (chart != null) {
            args.addProperty("chart", chart.toString());
          }
          String title = Printable.line(chart != null ? "▶ Run the chart's " + event.name() + " hooks locally"
              : "▶ Run " + event.name() + " hooks locally (" + event.steps().size() + ")");
          lenses.add(new CodeLens(positions.range(step.source()), new Command(title, RUN_HOOK, List.of(args)), null));
        }
      }
    }
  }

  private static JsonObject arguments(String uri, Handler h, String hook, String show) {
    JsonObject args = new JsonObject();
    args.addProperty("uri", uri);
    args.addProperty("resource", h.container().pod().owner().displayName());
    args.addProperty("document", h.container().pod().owner().document());
    args.addProperty("container", h.container().name());
    args.addProperty("hook", hook);
    args.addProperty("show", show);
    return args;
  }

  /** {@code workspace/executeCommand}: answers with what happened, {@code status} first. */
  CompletableFuture<Object> execute(ExecuteCommandParams params) {
    if (!RUN_HOOK.equals(params.getCommand())) {
      return CompletableFuture.completedFuture(status("refused", "unknown command " + params.getCommand()));
    }
    JsonObject args = params.getArguments() == null || params.getArguments().isEmpty()
        || !(params.getArguments().get(0) instanceof JsonObject o) ? null : o;
    if (args == null || !args.has("uri") || !args.has("hook") && !args.has("kind")) {
      return CompletableFuture.completedFuture(status("refused", RUN_HOOK + " needs {uri, hook, resource?, "
          + "container?, document?}, {uri, kind: helm, event} or {uri, kind: rollout, resource?}"));
    }
    if (!busy.compareAndSet(false, true)) {
      return CompletableFuture.completedFuture(shown(status("refused", "a hook run is in progress; wait for its "
          + "report")));
    }
    String token = params.getWorkDoneToken() == null ? null
        : params.getWorkDoneToken().isLeft() ? params.getWorkDoneToken().getLeft()
        : String.valueOf(params.getWorkDoneToken().getRight());
    return CompletableFuture.supplyAsync(() -> {
      try {
        return run(args, token);
      } catch (RuntimeException e) {
        log.error("hooklens.runHook failed", e);
        return shown(status("failed", "the hook run failed: " + e.getMessage()));
      } finally {
        busy.set(false);
      }
    }, executor);
  }

  private Object run(JsonObject args, String givenToken) {
    String uri = args.get("uri").getAsString();
    TextDocument doc;
    try {
      doc = document(uri);
    } catch (IOException e) {
      return shown(status("refused", "cannot read " + uri + ": " + e.getMessage()));
    }
    if (doc == null) {
      return shown(status("refused", "cannot read " + uri));
    }
    String kind = string(args, "kind");
    HookRuns.Kind runKind = HELM.equals(kind) ? HookRuns.Kind.HELM : ROLLOUT.equals(kind) ? HookRuns.Kind.ROLLOUT
        : kind == null || "container".equals(kind) ? HookRuns.Kind.CONTAINER : null;
    if (runKind == null) {
      return shown(status("refused", "kind must be container, helm or rollout, not " + kind));
    }
    Selection selection = runKind == HookRuns.Kind.CONTAINER
        ? new Selection(string(args, "hook"), string(args, "container"), string(args, "resource"),
            args.has("document") ? args.get("document").getAsInt() : -1, null)
        : new Selection(null, null, string(args, "resource"), -1, null);
    HookRuns.Options options = HookRuns.Options.embedded(runKind, selection, string(args, "event"));
    HookRuns.Source source;
    if (runKind == HookRuns.Kind.HELM && string(args, "chart") != null) {
      Path chart = Path.of(string(args, "chart"));
      try {
        source = runs.chart(chart, ChartLint.Values.NONE, configs.configFor(chart.resolve(CHART_YAML).toUri()
            .toString()));
      } catch (IOException e) {
        return shown(status("refused", e.getMessage()));
      }
    } else {
      Analyzer.Parsed parsed = analyzer.parse(doc);
      source = new HookRuns.Source(parsed.model(), () -> analyzer.lint(parsed, configs.configFor(uri)).findings(),
          null);
    }
    Face face = new Face(givenToken);
    HookRuns.Outcome outcome = runs.run(source, options, face);
    if (outcome instanceof HookRuns.Ran ran) {
      face.progress.end(ran.report().succeeded() ? "every hook succeeded" : "a hook failed or an app was SIGKILLed");
      return result(ran.report(), "timeline".equals(string(args, "show")));
    }
    if (outcome instanceof HookRuns.NotAgreed) {
      log.info("hooklens.runHook: not run (the user did not choose " + RUN + ")");
      return status("cancelled", "nothing ran");
    }
    if (outcome instanceof HookRuns.Stopped) {
      face.progress.end("stopped");
      return shown(status("failed", "the run was stopped"));
    }
    if (outcome instanceof HookRuns.Failed f) {
      face.progress.end("failed");
      return shown(status("failed", f.message()));
    }
    String why = outcome instanceof HookRuns.NothingToRun n ? "nothing to run: " + String.join("; ", n.problems())
        : outcome instanceof HookRuns.Refused r ? r.message() : Runner.NO_SANDBOX;
    return shown(status("refused", why));
  }

  /** The editor's part in a run: consent through a dialog, progress through {@code $/progress} and the log. */
  private final class Face implements HookRuns.Face {
    private final Progress progress;

    Face(String token) {
      this.progress = new Progress(token);
    }

    @Override
    public boolean agree(String plan) {
      return ask(HookRuns.QUESTION + "\n" + plan.stripTrailing());
    }

    @Override
    public void starting(String title) {
      progress.begin(title);
    }

    @Override
    public void line(double seconds, String pod, String what) {
      String line = String.format(Locale.ROOT, "%.2f s %s: %s", seconds, pod, what);
      log.info("run: " + line);
      progress.report(line);
    }
  }

  private JsonObject result(RunReport report, boolean openTimeline) {
    JsonObject result = status("ran", null);
    result.addProperty("succeeded", report.succeeded());
    String svg = null;
    try {
      Path dir = Files.createTempDirectory("hooklens-run-");
      Path file = dir.resolve("timeline.svg");
      Files.writeString(file, SvgTimeline.render(report));
      svg = file.toString();
      result.addProperty("svg", svg);
    } catch (IOException e) {
      log.warn("cannot write the timeline SVG: " + e);
    }
    String text = TextReport.render(report, LOG_WIDTH, false);
    result.addProperty("text", text);
    JsonElement json = JsonParser.parseString(JsonReport.render(report));
    result.add("report", json);
    log.info("hooklens run report for " + Printable.line(report.source()) + ":\n" + text);
    String message = String.join("\n", TextReport.verdictLines(report)) + (svg == null ? "" : "\nTimeline: " + svg);
    LanguageClient c = client.get();
    if (c != null) {
      c.showMessage(new MessageParams(report.succeeded() ? MessageType.Info : MessageType.Warning, message));
      if (openTimeline && svg != null && showsDocuments()) {
        ShowDocumentParams show = new ShowDocumentParams(Path.of(svg).toUri().toString());
        show.setTakeFocus(true);
        // LSP4IJ (as of commit d21cff9) opens a shown document only when it has a selection.
        show.setSelection(new Range(new Position(0, 0), new Position(0, 0)));
        c.showDocument(show);
      }
    }
    return result;
  }

  /** Asks the user; true only when the answer is {@value #RUN}. */
  private boolean ask(String text) {
    LanguageClient c = client.get();
    if (c == null) {
      return false;
    }
    ShowMessageRequestParams request = new ShowMessageRequestParams(List.of(new MessageActionItem(RUN),
        new MessageActionItem(CANCEL)));
    request.setType(MessageType.Info);
    request.setMessage(text);
    try {
      MessageActionItem answer = c.showMessageRequest(request).get();
      return answer != null && RUN.equals(answer.getTitle());
    } catch (ExecutionException e) {
      log.warn("the client did not answer whether to run the hooks: " + e.getCause());
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private boolean showsDocuments() {
    ClientCapabilities caps = capabilities.get();
    return caps != null && caps.getWindow() != null && caps.getWindow().getShowDocument() != null
        && caps.getWindow().getShowDocument().isSupport();
  }

  /**
   * The open document, else the file behind a {@code file:} URI as it is on disk, read as the linter reads it;
   * null when there is no such file.
   *
   * @throws IOException when the file cannot be read, or the linter refuses it (UTF-16, binary)
   */
  private TextDocument document(String uri) throws IOException {
    TextDocument open = store.get(uri);
    if (open != null) {
      return open;
    }
    Path path = ConfigService.path(uri);
    if (path == null || !Files.isRegularFile(path)) {
      return null;
    }
    Linter.Decoded d = Linter.decode(Files.readAllBytes(path));
    if (d.refused()) {
      throw new IOException(d.refusalClause());
    }
    return new TextDocument(uri, path.toString().endsWith(".json") ? "json" : "yaml", 0, d.text());
  }

  private static String string(JsonObject o, String key) {
    return o.has(key) && o.get(key).isJsonPrimitive() ? o.get(key).getAsString() : null;
  }

  /** Stops a run in progress: its pod, its cluster and every process it started go. */
  void shutdown() {
    runs.stop();
    executor.shutdownNow();
  }

  /** Work-done progress, when the client takes it: the client's token, or one the server creates. */
  private final class Progress {
    private String token;

    Progress(String given) {
      this.token = given;
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
        String created = "hooklens-run-" + UUID.randomUUID();
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

  /** A refusal or failure the user must see, not only the caller. */
  private JsonObject shown(JsonObject status) {
    return CommandAnswers.shown(log, RUN_HOOK, status);
  }
}
