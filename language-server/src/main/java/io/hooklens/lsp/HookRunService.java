package io.hooklens.lsp;

import static io.hooklens.lsp.CommandAnswers.status;

import io.hooklens.app.ChartLint;
import io.hooklens.app.HookRuns;
import io.hooklens.app.HookTargets;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
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
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.eclipse.lsp4j.ClientCapabilities;
import org.eclipse.lsp4j.ExecuteCommandParams;
import org.eclipse.lsp4j.MessageActionItem;
import org.eclipse.lsp4j.MessageParams;
import org.eclipse.lsp4j.MessageType;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.ShowDocumentParams;
import org.eclipse.lsp4j.ShowMessageRequestParams;
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
  private final ConfigService configs;
  private final ClientLog log;
  private final Supplier<LanguageClient> client;
  private final Supplier<ClientCapabilities> capabilities;
  private final AtomicBoolean busy = new AtomicBoolean();
  private final HookRuns runs;
  private final HookTargets targets;
  private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "hooklens-run");
    t.setDaemon(true);
    return t;
  });

  HookRunService(DocumentStore store, HookRuns runs, HookTargets targets, ConfigService configs, ClientLog log,
      Supplier<LanguageClient> client, Supplier<ClientCapabilities> capabilities) {
    this.store = store;
    this.runs = runs;
    this.targets = targets;
    this.configs = configs;
    this.log = log;
    this.client = client;
    this.capabilities = capabilities;
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
    try {
      source = runs.source(target(args.get("uri").getAsString(),
          runKind == HookRuns.Kind.HELM ? string(args, "chart") : null));
    } catch (HookTargets.Unavailable e) {
      return shown(status("refused", e.getMessage()));
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
    private final WorkDoneProgress progress;

    Face(String token) {
      this.progress = new WorkDoneProgress(client, capabilities, log, token, "hooklens-run-");
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
   * What a run works on: the chart named, rendered; else the open document; else the file behind a {@code file:}
   * URI as it is on disk.
   */
  private HookTargets.Target target(String uri, String chart) throws HookTargets.Unavailable {
    if (chart != null) {
      Path dir = Path.of(chart);
      return targets.chart(dir, ChartLint.Values.NONE, configs.configFor(dir.resolve(CHART_YAML).toUri().toString()));
    }
    TextDocument open = store.get(uri);
    if (open != null) {
      return targets.text(ManifestFiles.lintName(open), open.text(), configs.configFor(uri),
          HookTargets.Reading.LINTED);
    }
    Path path = ConfigService.path(uri);
    if (path == null || !Files.isRegularFile(path)) {
      throw new HookTargets.Unavailable("cannot read " + uri);
    }
    return targets.file(path, configs.configFor(uri), HookTargets.Reading.LINTED);
  }

  private static String string(JsonObject o, String key) {
    return o.has(key) && o.get(key).isJsonPrimitive() ? o.get(key).getAsString() : null;
  }

  /** Stops a run in progress: its pod, its cluster and every process it started go. */
  void shutdown() {
    runs.stop();
    executor.shutdownNow();
  }

  /** A refusal or failure the user must see, not only the caller. */
  private JsonObject shown(JsonObject status) {
    return CommandAnswers.shown(log, RUN_HOOK, status);
  }
}
