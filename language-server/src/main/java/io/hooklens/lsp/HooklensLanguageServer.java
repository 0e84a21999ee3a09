package io.hooklens.lsp;

import io.hooklens.app.ChartLint;
import io.hooklens.app.HookRuns;
import io.hooklens.app.HookTargets;
import com.google.gson.JsonObject;
import io.hooklens.core.engine.Linter;
import io.hooklens.core.engine.RuleRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.lsp4j.ClientCapabilities;
import org.eclipse.lsp4j.CodeActionKind;
import org.eclipse.lsp4j.CodeActionOptions;
import org.eclipse.lsp4j.CodeLensOptions;
import org.eclipse.lsp4j.ConfigurationItem;
import org.eclipse.lsp4j.ConfigurationParams;
import org.eclipse.lsp4j.DidChangeWatchedFilesRegistrationOptions;
import org.eclipse.lsp4j.ExecuteCommandOptions;
import org.eclipse.lsp4j.ExecuteCommandParams;
import org.eclipse.lsp4j.FileSystemWatcher;
import org.eclipse.lsp4j.InitializeParams;
import org.eclipse.lsp4j.InitializeResult;
import org.eclipse.lsp4j.InitializedParams;
import org.eclipse.lsp4j.Registration;
import org.eclipse.lsp4j.RegistrationParams;
import org.eclipse.lsp4j.SaveOptions;
import org.eclipse.lsp4j.ServerCapabilities;
import org.eclipse.lsp4j.ServerInfo;
import org.eclipse.lsp4j.TextDocumentSyncKind;
import org.eclipse.lsp4j.TextDocumentSyncOptions;
import org.eclipse.lsp4j.WorkspaceClientCapabilities;
import org.eclipse.lsp4j.WorkspaceFolder;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.services.LanguageClient;
import org.eclipse.lsp4j.services.LanguageClientAware;
import org.eclipse.lsp4j.services.LanguageServer;
import org.eclipse.lsp4j.services.TextDocumentService;
import org.eclipse.lsp4j.services.WorkspaceService;

/**
 * The Hooklens language server: the lsp4j façade that wires the feature services together and answers
 * the lifecycle messages. It advertises only what it implements: full and incremental document sync,
 * diagnostics (pushed), document symbols, completion, hover, (for clients that show them) inlay hints,
 * code lenses and the {@code hooklens.runHook} command behind them.
 */
public final class HooklensLanguageServer implements LanguageServer, LanguageClientAware {
  /** The glob clients watch for us, so that editing a configuration outside the editor re-lints. */
  static final String CONFIG_GLOB = "**/" + ConfigService.FILE_NAME;

  private final RuleRegistry registry;
  private final String version;
  private final ClientLog log = new ClientLog();
  private final DocumentStore store = new DocumentStore();
  private final ConfigService configs;
  private final ScheduledThreadPoolExecutor executor;
  private final DiagnosticsService diagnostics;
  private final HooklensTextDocumentService textDocuments;
  private final HooklensWorkspaceService workspace;
  private final HookAssist assist;
  private final HookRunService runs;
  private final ChartCheckService charts;
  private final WorkspaceLintService workspaceLint;
  private volatile List<Path> folders = List.of();
  private final CompletableFuture<Integer> exited = new CompletableFuture<>();
  private volatile LanguageClient client;
  private volatile ClientCapabilities capabilities = new ClientCapabilities();
  private volatile boolean shutdownRequested;

  /**
   * @param registry the rules to run
   * @param version reported to the client in {@code serverInfo}
   */
  public HooklensLanguageServer(RuleRegistry registry, String version) {
    this.registry = registry;
    this.version = version;
    this.configs = new ConfigService(registry, log);
    this.executor = workers();
    Linter linter = new Linter(registry);
    Analyzer analyzer = new Analyzer(linter);
    DiagnosticConverter converter = new DiagnosticConverter(registry);
    this.diagnostics = new DiagnosticsService(store, analyzer, configs, converter, () -> client, log, executor);
    ChartLint chartLint = new ChartLint(linter);
    LintedDiagnostics linted = new LintedDiagnostics(converter, log);
    this.charts = new ChartCheckService(store, configs, linted, chartLint, () -> client, log, diagnostics::now,
        diagnostics::awaitIdle);
    this.workspaceLint = new WorkspaceLintService(linter, configs, store, linted, () -> client, () -> folders, log,
        diagnostics::awaitIdle);
    diagnostics.charts(charts);
    CodeActionsService codeActions = new CodeActionsService(analyzer, configs, this::documentChanges);
    this.assist = new HookAssist(store, analyzer, configs, log);
    this.runs = new HookRunService(store, new HookRuns(linter), new HookTargets(linter), configs, log, () -> client,
        () -> capabilities);
    this.textDocuments = new HooklensTextDocumentService(store, analyzer, diagnostics, new DocumentSymbolsService(),
        codeActions, this::configFilesChanged, executor, log, assist, new RunLenses(analyzer), charts);
    this.workspace = new HooklensWorkspaceService(this);
  }

  /** Whether the client takes versioned document edits in a workspace edit. */
  private boolean documentChanges() {
    WorkspaceClientCapabilities ws = capabilities.getWorkspace();
    return ws != null && ws.getWorkspaceEdit() != null
        && Boolean.TRUE.equals(ws.getWorkspaceEdit().getDocumentChanges());
  }

  /** Daemon workers, so that a client that vanishes never keeps the process alive. */
  private static ScheduledThreadPoolExecutor workers() {
    int threads = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
    AtomicInteger n = new AtomicInteger();
    ScheduledThreadPoolExecutor e = new ScheduledThreadPoolExecutor(threads, r -> {
      Thread t = new Thread(r, "hooklens-worker-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    // On shutdown, validations still waiting for their debounce are dropped, running ones finish.
    e.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    e.setRemoveOnCancelPolicy(true);
    return e;
  }

  @Override
  public void connect(LanguageClient c) {
    client = c;
    log.connect(c);
  }

  @Override
  public CompletableFuture<InitializeResult> initialize(InitializeParams params) {
    if (params.getCapabilities() != null) {
      capabilities = params.getCapabilities();
    }
    folders = folders(params);
    JsonObject section = Settings.section(params.getInitializationOptions());
    if (section != null) {
      applySettings(section);
    }
    TextDocumentSyncOptions sync = new TextDocumentSyncOptions();
    sync.setOpenClose(true);
    sync.setChange(TextDocumentSyncKind.Incremental);
    sync.setSave(new SaveOptions(false));
    ServerCapabilities caps = new ServerCapabilities();
    caps.setTextDocumentSync(sync);
    caps.setDocumentSymbolProvider(true);
    caps.setCodeActionProvider(new CodeActionOptions(List.of(CodeActionKind.QuickFix,
        CodeActionKind.RefactorRewrite, CodeActionsService.FIX_ALL)));
    assist.advertise(caps, capabilities);
    caps.setCodeLensProvider(new CodeLensOptions(false));
    caps.setExecuteCommandProvider(new ExecuteCommandOptions(List.of(HookRunService.RUN_HOOK,
        WorkspaceLintService.LINT_WORKSPACE)));
    return CompletableFuture.completedFuture(new InitializeResult(caps, new ServerInfo("hooklens", version)));
  }

  /** The workspace folders on disk, else the root; for the workspace lint. */
  private static List<Path> folders(InitializeParams params) {
    List<String> uris = params.getWorkspaceFolders() != null
        ? params.getWorkspaceFolders().stream().map(WorkspaceFolder::getUri).toList()
        : params.getRootUri() != null ? List.of(params.getRootUri()) : List.of();
    return uris.stream().map(ConfigService::path).filter(Objects::nonNull).toList();
  }

  @Override
  public void initialized(InitializedParams params) {
    WorkspaceClientCapabilities ws = capabilities.getWorkspace();
    if (ws != null && ws.getDidChangeWatchedFiles() != null
        && Boolean.TRUE.equals(ws.getDidChangeWatchedFiles().getDynamicRegistration())) {
      Registration watch = new Registration("hooklens-config-files", "workspace/didChangeWatchedFiles",
          new DidChangeWatchedFilesRegistrationOptions(List.of(new FileSystemWatcher(Either.forLeft(CONFIG_GLOB)))));
      client.registerCapability(new RegistrationParams(List.of(watch))).exceptionally(e -> {
        log.warn("the client did not watch " + CONFIG_GLOB + " (" + e + "); save a configuration in the editor to"
            + " apply it");
        return null;
      });
    }
    pullSettings();
  }

  /** Settings pushed by the client; a payload without our section means "ask me", where the client can answer. */
  void settingsChanged(Object payload) {
    JsonObject section = Settings.section(payload);
    if (section != null) {
      applySettings(section);
    } else {
      pullSettings();
    }
  }

  /** Asks the client for the {@code hooklens} section, if it answers such requests. */
  private void pullSettings() {
    WorkspaceClientCapabilities ws = capabilities.getWorkspace();
    if (ws == null || !Boolean.TRUE.equals(ws.getConfiguration())) {
      return;
    }
    ConfigurationItem item = new ConfigurationItem();
    item.setSection(Settings.SECTION);
    client.configuration(new ConfigurationParams(List.of(item))).thenAccept(values -> {
      Object section = values == null || values.isEmpty() ? null : values.get(0);
      // A client with nothing to say keeps what initializationOptions or an earlier push set.
      if (section instanceof JsonObject o && !o.keySet().isEmpty()) {
        applySettings(o);
      }
    }).exceptionally(e -> {
      log.warn("cannot read the " + Settings.SECTION + " settings from the client: " + e);
      return null;
    });
  }

  private void applySettings(JsonObject section) {
    List<String> problems = new ArrayList<>();
    configs.settings(Settings.read(section, registry, problems::add));
    if (!problems.isEmpty()) {
      // Shown, not only logged: a release name the editor ignores renders every chart under another one.
      log.showWarning("Hooklens settings: " + String.join("\n", problems));
    }
    diagnostics.all();
    charts.all();
  }

  void configFilesChanged() {
    configs.filesChanged();
    diagnostics.all();
    charts.all();
  }

  @Override
  public CompletableFuture<Object> shutdown() {
    shutdownRequested = true;
    executor.shutdown();
    runs.shutdown();
    charts.shutdown();
    workspaceLint.shutdown();
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public void exit() {
    executor.shutdown();
    runs.shutdown();
    charts.shutdown();
    workspaceLint.shutdown();
    // The protocol's exit code: 0 after a shutdown request, 1 when the client skipped it.
    exited.complete(shutdownRequested ? 0 : 1);
  }

  /** Completes with the exit code when the client sends {@code exit}. */
  CompletableFuture<Integer> exited() {
    return exited;
  }

  boolean shutdownRequested() {
    return shutdownRequested;
  }

  /** Stops the workers when the connection is gone without an exit. */
  void dispose() {
    executor.shutdown();
    runs.shutdown();
    charts.shutdown();
    workspaceLint.shutdown();
  }

  /** Where the server tells what went wrong: its log and the client's. */
  ClientLog log() {
    return log;
  }

  /** {@code workspace/executeCommand}: a workspace lint, else a hook run. */
  CompletableFuture<Object> execute(ExecuteCommandParams params) {
    return WorkspaceLintService.LINT_WORKSPACE.equals(params.getCommand()) ? workspaceLint.execute()
        : runs.execute(params);
  }

  /** The open documents, as the server has them. */
  DocumentStore documents() {
    return store;
  }

  @Override
  public TextDocumentService getTextDocumentService() {
    return textDocuments;
  }

  @Override
  public WorkspaceService getWorkspaceService() {
    return workspace;
  }
}
