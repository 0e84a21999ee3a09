package io.hooklens.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.hooklens.Timing;
import io.hooklens.app.HookRuns;
import io.hooklens.cli.Main;
import io.hooklens.core.text.Printable;
import io.hooklens.rules.BuiltInRules;
import java.nio.charset.StandardCharsets;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.lsp4j.CodeLens;
import org.eclipse.lsp4j.CodeLensParams;
import org.eclipse.lsp4j.ExecuteCommandParams;
import org.eclipse.lsp4j.MessageParams;
import org.eclipse.lsp4j.ProgressParams;
import org.eclipse.lsp4j.ShowDocumentCapabilities;
import org.eclipse.lsp4j.ShowMessageRequestParams;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.eclipse.lsp4j.WindowClientCapabilities;
import org.eclipse.lsp4j.WorkDoneProgressBegin;
import org.eclipse.lsp4j.WorkDoneProgressEnd;
import org.eclipse.lsp4j.WorkDoneProgressKind;
import org.eclipse.lsp4j.WorkDoneProgressReport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import org.junit.jupiter.api.io.TempDir;

/**
 * Running hooks from the editor over real JSON-RPC: the code lenses above hooks, the consent asked through
 * window/showMessageRequest, progress, and the report, with the embedded cluster and real processes.
 */
@Tag("slow")
class RunHookCommandTest {
  private static final long RUN_TIMEOUT_MS = 60_000;
  private static final String URI = "file:///work/k8s/web.yaml";
  private static final String TEXT = """
      apiVersion: apps/v1
      kind: Deployment
      metadata:
        name: web
      spec:
        template:
          spec:
            terminationGracePeriodSeconds: 2
            containers:
              - name: app
                image: debian:12
                command: ["sh", "-c", "trap 'exit 0' TERM; while true; do sleep 0.1; done"]
                lifecycle:
                  postStart:
                    exec:
                      command: ["sh", "-c", "echo hello"]
                  preStop:
                    exec:
                      command: ["sh", "-c", "echo bye; sleep 0.5"]
      """;

  @TempDir
  Path dir;

  private static LspSession session() {
    return LspSession.start(BuiltInRules.registry(), LspSession.json("{\"hooklens\": {\"debounceMs\": 0}}"), caps -> {
      WindowClientCapabilities window = new WindowClientCapabilities();
      window.setWorkDoneProgress(true);
      window.setShowDocument(new ShowDocumentCapabilities(true));
      caps.setWindow(window);
    }, c -> { });
  }

  private static List<CodeLens> lenses(LspSession s, String uri) throws Exception {
    List<? extends CodeLens> lenses = s.remote.getTextDocumentService()
        .codeLens(new CodeLensParams(new TextDocumentIdentifier(uri))).get(RecordingClient.TIMEOUT_MS,
            TimeUnit.MILLISECONDS);
    return List.copyOf(lenses);
  }

  private static JsonObject execute(LspSession s, CodeLens lens) throws Exception {
    return execute(s, new ExecuteCommandParams(lens.getCommand().getCommand(), lens.getCommand().getArguments()),
        RUN_TIMEOUT_MS);
  }

  /** The command's answer, which the client's lsp4j reads as plain maps and lists, as JSON. */
  private static JsonObject execute(LspSession s, ExecuteCommandParams params, long timeoutMs) throws Exception {
    Object result = s.remote.getWorkspaceService().executeCommand(params).get(timeoutMs, TimeUnit.MILLISECONDS);
    return new Gson().toJsonTree(result).getAsJsonObject();
  }

  private static CodeLens lens(List<CodeLens> lenses, String title) {
    return lenses.stream().filter(l -> l.getCommand().getTitle().equals(title)).findFirst()
        .orElseThrow(() -> new AssertionError(title + " not in " + lenses));
  }

  @Test
  void theServerAdvertisesTheCommandAndLensesSitAboveEachHook() throws Exception {
    try (LspSession s = session()) {
      assertEquals(List.of(HookRunService.RUN_HOOK, WorkspaceLintService.LINT_WORKSPACE),
          s.initialized.getCapabilities().getExecuteCommandProvider().getCommands());
      assertTrue(s.initialized.getCapabilities().getCodeLensProvider() != null);
      s.open(URI, "yaml", TEXT);
      List<CodeLens> lenses = lenses(s, URI);
      assertEquals(List.of("▶ Run postStart locally", "▶ Run preStop locally", "Show termination timeline"),
          lenses.stream().map(l -> l.getCommand().getTitle()).toList());
      assertEquals(13, lens(lenses, "▶ Run postStart locally").getRange().getStart().getLine());
      CodeLens preStop = lens(lenses, "▶ Run preStop locally");
      assertEquals(16, preStop.getRange().getStart().getLine());
      assertEquals(12, preStop.getRange().getStart().getCharacter());
      JsonObject args = (JsonObject) preStop.getCommand().getArguments().get(0);
      assertEquals("Deployment/web", args.get("resource").getAsString());
      assertEquals("app", args.get("container").getAsString());
      assertEquals("preStop", args.get("hook").getAsString());

      // A chart template's values exist only once Helm renders it: nothing to run there.
      String template = "file:///work/chart/templates/web.yaml";
      s.open(template, "yaml", TEXT.replace("name: web", "name: {{ .Release.Name }}"));
      assertEquals(List.of(), lenses(s, template));
    }
  }

  @Test
  void answeringCancelRunsNothing() throws Exception {
    try (LspSession s = session()) {
      s.client.answerMessageRequests(p -> HookRunService.CANCEL);
      s.open(URI, "yaml", TEXT);
      JsonObject result = execute(s, lens(lenses(s, URI), "▶ Run preStop locally"));
      assertEquals("cancelled", result.get("status").getAsString(), result.toString());

      ShowMessageRequestParams asked = s.client.messageRequests().get(0);
      assertTrue(asked.getMessage().startsWith("Run these commands on this machine?"), asked.getMessage());
      assertTrue(asked.getMessage().contains("container \"app\" runs: sh -c 'trap '\\''exit 0'\\'' TERM; while true; "
          + "do sleep 0.1; done'"), asked.getMessage());
      assertTrue(asked.getMessage().contains("preStop: exec sh -c 'echo bye; sleep 0.5'"), asked.getMessage());
      assertFalse(asked.getMessage().contains("postStart:"), "only the preStop hook was asked for");
      assertEquals(List.of("Run", "Cancel"), asked.getActions().stream().map(a -> a.getTitle()).toList());

      assertEquals(List.of(), s.client.progress(), "no progress: nothing started");
      assertTrue(s.client.logs().stream().noneMatch(m -> m.getMessage().contains("pod created")), "no pod was created");
      assertTrue(s.client.logs().stream().anyMatch(m -> m.getMessage().contains("not run")), s.client.logs().toString());
    }
  }

  @Test
  void theEditorAsksAboutTheSamePlanThatHooklensRunPrints() throws Exception {
    Path file = dir.resolve("web.yaml");
    Files.writeString(file, TEXT);
    String uri = file.toUri().toString();
    String editor;
    try (LspSession s = session()) {
      s.client.answerMessageRequests(p -> HookRunService.CANCEL);
      s.open(uri, "yaml", TEXT);
      execute(s, lens(lenses(s, uri), "▶ Run preStop locally"));
      editor = s.client.messageRequests().get(0).getMessage();
    }
    CommandLine cli = Main.commandLine();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(new StringWriter()));
    cli.setErr(new PrintWriter(err));
    assertEquals(2, cli.execute("run", file.toString(), "--hook", "preStop", "--container", "app", "--resource",
        "Deployment/web"));
    String printed = err.toString();
    assertTrue(printed.contains("nothing ran"), printed);
    String plan = printed.substring(0, printed.indexOf("hooklens: nothing ran")).stripTrailing();
    assertTrue(plan.startsWith("hooklens run will start 1 pod on this machine (embedded cluster):"), plan);
    assertEquals(HookRuns.QUESTION + "\n" + plan, editor);
  }

  @Test
  void answeringRunGivesAReportWithThePreStopTimingItsTimelineAndProgress() throws Exception {
    try (LspSession s = session()) {
      s.client.answerMessageRequests(p -> HookRunService.RUN);
      s.open(URI, "yaml", TEXT);
      JsonObject result = execute(s, lens(lenses(s, URI), "Show termination timeline"));
      assertEquals("ran", result.get("status").getAsString(), result.toString());
      assertTrue(result.get("succeeded").getAsBoolean(), result.get("text").getAsString());

      JsonObject step = result.getAsJsonObject("report").getAsJsonArray("steps").get(0).getAsJsonObject();
      JsonArray hooks = step.getAsJsonArray("hooks");
      assertEquals(2, hooks.size(), "the timeline runs the whole pod: postStart and preStop");
      JsonObject preStop = hooks.get(1).getAsJsonObject();
      assertEquals("preStop", preStop.get("hook").getAsString());
      long took = preStop.get("endMs").getAsLong() - preStop.get("startMs").getAsLong();
      Timing.assertAt(500, took, "preStop");
      assertEquals("bye\n", preStop.get("output").getAsString());

      Path svg = Path.of(result.get("svg").getAsString());
      String image = Files.readString(svg);
      assertTrue(image.contains("<svg"), svg.toString());
      assertTrue(image.contains(">output of app preStop</text>") && image.contains(">bye</text>"),
          "the editor's panel shows what the hook printed:\n" + image);
      JsonObject app = step.getAsJsonArray("containers").get(0).getAsJsonObject();
      assertEquals(1, app.getAsJsonArray("attempts").size(), app.toString());
      assertEquals(svg.toUri().toString(), s.client.documentsShown().get(0).getUri(), "the timeline is opened");
      assertNotNull(s.client.documentsShown().get(0).getSelection(), "LSP4IJ opens no document without a selection");

      MessageParams shown = s.client.awaitShown(m -> m.getMessage().contains("Timeline: " + svg));
      Matcher shownTook = Pattern.compile("✓ app: preStop took ([0-9.]+) s of the 2 s grace period")
          .matcher(shown.getMessage());
      assertTrue(shownTook.find(), shown.getMessage());
      Timing.assertAt(500, Math.round(Double.parseDouble(shownTook.group(1)) * 1000), "preStop in the message");
      s.client.awaitLog(m -> m.getMessage().contains("Termination (0 = deletion, grace period 2 s)"));
      s.client.awaitLog(m -> m.getMessage().contains("pod created"));

      List<ProgressParams> progress = s.client.progress();
      Object first = progress.get(0).getValue().getLeft();
      Object last = progress.get(progress.size() - 1).getValue().getLeft();
      assertTrue(first instanceof WorkDoneProgressBegin, first.toString());
      assertTrue(last instanceof WorkDoneProgressEnd, last.toString());
      assertTrue(progress.stream().anyMatch(p -> p.getValue().getLeft().getKind() == WorkDoneProgressKind.report));
    }
  }

  @Test
  void namesAndOutputMadeToRewriteTheEditorsOutputAreShownAsEscapes() throws Exception {
    try (LspSession s = session()) {
      s.client.answerMessageRequests(p -> HookRunService.RUN);
      s.open(URI, "yaml", TEXT.replace("- name: app", "- name: \"app\\e]0;pwned\\a\\r\\x9b2J\\u202e\"")
          .replace("echo bye; sleep 0.5", "printf 'bye\\\\033[2J\\\\r\\\\n'"));
      JsonObject result = execute(s, lens(lenses(s, URI), "▶ Run preStop locally"));
      assertEquals("ran", result.get("status").getAsString(), result.toString());
      JsonObject preStop = result.getAsJsonObject("report").getAsJsonArray("steps").get(0).getAsJsonObject()
          .getAsJsonArray("hooks").get(0).getAsJsonObject();
      assertEquals("bye\u001b[2J\r\n", preStop.get("output").getAsString(), "the JSON keeps what was printed");

      String container = "app\\x1b]0;pwned\\x07\\r\\u009b2J\\u202e";
      String asked = s.client.messageRequests().get(0).getMessage();
      assertTrue(asked.contains("container \"" + container + "\" runs: sh -c"), asked);
      MessageParams shown = s.client.awaitShown(m -> m.getMessage().contains("Timeline: "));
      assertTrue(shown.getMessage().startsWith("✓ " + container + ": preStop took"), shown.getMessage());
      String report = s.client.awaitLog(m -> m.getMessage().startsWith("hooklens run report for ")).getMessage();
      assertTrue(report.contains("      | bye\\x1b[2J\n"), report);
      List<String> texts = new ArrayList<>(List.of(asked, shown.getMessage()));
      s.client.logs().forEach(m -> texts.add(m.getMessage()));
      for (ProgressParams p : s.client.progress()) {
        if (p.getValue().getLeft() instanceof WorkDoneProgressBegin begin) {
          texts.add(begin.getTitle());
        } else if (p.getValue().getLeft() instanceof WorkDoneProgressReport reported) {
          texts.add(reported.getMessage());
        }
      }
      for (String text : texts) {
        assertTrue(text.codePoints().noneMatch(c -> c < 0x20 && c != '\n' || c >= 0x7f && c <= 0x9f || c == 0x202e),
            Printable.line(text));
      }
      assertTrue(texts.stream().anyMatch(t -> t.contains("preStop of \"" + container + "\" started")),
          texts.toString());
    }
  }

  /** Asks to run the preStop hook of a document, which the server refuses: its answer. */
  private static JsonObject runPreStopRefused(LspSession s, String uri) throws Exception {
    JsonObject args = new JsonObject();
    args.addProperty("uri", uri);
    args.addProperty("hook", "preStop");
    JsonObject result = execute(s, new ExecuteCommandParams(HookRunService.RUN_HOOK, List.of(args)),
        RecordingClient.TIMEOUT_MS);
    assertEquals("refused", result.get("status").getAsString());
    return result;
  }

  @Test
  void aBadRequestIsRefusedAndShown() throws Exception {
    try (LspSession s = session()) {
      runPreStopRefused(s, URI);
      s.client.awaitShown(m -> m.getMessage().contains("cannot read " + URI));
      assertEquals(List.of(), s.client.messageRequests(), "nothing to ask about");
    }
  }

  @Test
  void aFileOnDiskTheLinterRefusesIsRefusedWithItsReason() throws Exception {
    Path file = dir.resolve("web.yaml");
    Files.write(file, TEXT.getBytes(StandardCharsets.UTF_16LE));
    String uri = file.toUri().toString();
    try (LspSession s = session()) {
      // As hooklens run says it: the file, then the linter's reason.
      assertEquals(file + ": the file is UTF-16LE encoded (no byte-order mark; every other byte is NUL); save it"
          + " as UTF-8", runPreStopRefused(s, uri).get("message").getAsString());
    }
  }

  private static final String HELM_URI = "file:///work/k8s/hooks.yaml";
  private static final String HELM_TEXT = """
      apiVersion: batch/v1
      kind: Job
      metadata:
        name: migrate
        annotations:
          helm.sh/hook: pre-install,pre-upgrade
          helm.sh/hook-delete-policy: hook-succeeded
      spec:
        template:
          spec:
            restartPolicy: Never
            containers:
              - name: migrate
                image: debian:12
                command: [sh, -c, 'echo migrated']
      ---
      apiVersion: v1
      kind: Pod
      metadata:
        name: check
        annotations:
          helm.sh/hook: pre-install
          helm.sh/hook-weight: "5"
      spec:
        restartPolicy: Never
        containers:
          - name: check
            image: debian:12
            command: [sh, -c, 'echo checked; exit 4']
      """;

  @Test
  void aHelmEventsLensRunsTheWholeEventInHelmsOrderAfterConsent() throws Exception {
    try (LspSession s = session()) {
      s.client.answerMessageRequests(p -> HookRunService.RUN);
      s.open(HELM_URI, "yaml", HELM_TEXT);
      List<CodeLens> lenses = lenses(s, HELM_URI);
      assertEquals(List.of("▶ Run pre-install hooks locally (2)", "▶ Run pre-install hooks locally (2)",
          "▶ Run pre-upgrade hooks locally (1)"), lenses.stream().map(l -> l.getCommand().getTitle()).toList());
      CodeLens first = lenses.get(0);
      assertEquals(5, first.getRange().getStart().getLine());
      assertEquals(18, first.getRange().getStart().getCharacter(), "on the helm.sh/hook value");
      JsonObject result = execute(s, first);
      assertEquals("ran", result.get("status").getAsString(), result.toString());
      assertFalse(result.get("succeeded").getAsBoolean(), "the check Pod exits 4");

      String asked = s.client.messageRequests().get(0).getMessage();
      assertTrue(asked.startsWith("Run these commands on this machine?\nhooklens run will run helm pre-install from "),
          asked);
      assertTrue(asked.contains("container \"check\" runs: sh -c 'echo checked; exit 4'"), asked);

      JsonObject sequence = result.getAsJsonObject("report").getAsJsonArray("sequences").get(0).getAsJsonObject();
      JsonArray items = sequence.getAsJsonArray("items");
      assertEquals("Job/migrate", items.get(0).getAsJsonObject().get("what").getAsString());
      assertEquals("succeeded", items.get(0).getAsJsonObject().get("outcome").getAsString());
      assertEquals("hook-succeeded", items.get(0).getAsJsonObject().get("deletedBy").getAsString(),
          "a failed event still deletes the hooks before it that succeeded");
      assertEquals("failed", items.get(1).getAsJsonObject().get("outcome").getAsString());
      s.client.awaitShown(m -> m.getMessage().contains("✗ Pod/check: failed after"));
      s.client.awaitLog(m -> m.getMessage().contains("helm pre-install (0 = start)"));
    }
  }

  @Test
  void aDeploymentConfigsLensRunsItsRolloutAndAnsweringCancelRunsNothing() throws Exception {
    String uri = "file:///work/k8s/dc.yaml";
    String text = """
        apiVersion: apps.openshift.io/v1
        kind: DeploymentConfig
        metadata:
          name: shop
        spec:
          strategy:
            type: Rolling
            rollingParams:
              pre:
                failurePolicy: Abort
                execNewPod:
                  containerName: shop
                  command: [/bin/sh, -c, 'echo pre for $OPENSHIFT_DEPLOYMENT_NAME']
          template:
            spec:
              containers:
                - name: shop
                  image: debian:12
        """;
    try (LspSession s = session()) {
      s.open(uri, "yaml", text);
      List<CodeLens> lenses = lenses(s, uri);
      CodeLens rollout = lens(lenses, "▶ Run rollout hooks locally");
      assertEquals(8, rollout.getRange().getStart().getLine(), "on the first hook that runs");

      s.client.answerMessageRequests(p -> HookRunService.CANCEL);
      JsonObject cancelled = execute(s, rollout);
      assertEquals("cancelled", cancelled.get("status").getAsString(), cancelled.toString());
      assertTrue(s.client.messageRequests().get(0).getMessage().contains("pre (Abort): a hook pod from container "
          + "\"shop\" runs: /bin/sh -c 'echo pre for $OPENSHIFT_DEPLOYMENT_NAME'"));
      assertEquals(List.of(), s.client.progress(), "nothing started");

      s.client.answerMessageRequests(p -> HookRunService.RUN);
      JsonObject result = execute(s, rollout);
      assertTrue(result.get("succeeded").getAsBoolean(), result.get("text").getAsString());
      JsonObject pre = result.getAsJsonObject("report").getAsJsonArray("sequences").get(0).getAsJsonObject()
          .getAsJsonArray("items").get(0).getAsJsonObject();
      assertEquals("pre for shop-1", pre.getAsJsonArray("pods").get(0).getAsJsonObject().getAsJsonArray("containers")
          .get(0).getAsJsonObject().get("output").getAsString().strip());
    }
  }

  @Test
  void aChartTemplatesLensRunsTheRenderedChartsEvent() throws Exception {
    Path chart = dir.resolve("shop");
    Files.createDirectories(chart.resolve("templates"));
    Files.writeString(chart.resolve("Chart.yaml"), "apiVersion: v2\nname: shop\nversion: 1.0.0\n");
    Files.writeString(chart.resolve("values.yaml"), "message: migrated by the chart\n");
    Path template = chart.resolve("templates/migrate.yaml");
    String text = """
        apiVersion: batch/v1
        kind: Job
        metadata:
          name: {{ .Release.Name }}-migrate
          annotations:
            helm.sh/hook: pre-install
        spec:
          backoffLimit: 0
          template:
            spec:
              restartPolicy: Never
              containers:
                - name: migrate
                  image: debian:12
                  command: [sh, -c, 'echo {{ .Values.message }}']
        """;
    Files.writeString(template, text);
    String uri = template.toUri().toString();
    try (LspSession s = session()) {
      s.client.answerMessageRequests(p -> HookRunService.RUN);
      s.open(uri, "yaml", text);
      CodeLens lens = lens(lenses(s, uri), "▶ Run the chart's pre-install hooks locally");
      assertEquals(5, lens.getRange().getStart().getLine());
      JsonObject result = execute(s, lens);
      assertEquals("ran", result.get("status").getAsString(), result.toString());
      assertTrue(result.get("succeeded").getAsBoolean(), result.get("text").getAsString());
      assertTrue(s.client.messageRequests().get(0).getMessage().contains(
          "container \"migrate\" runs: sh -c 'echo migrated by the chart'"), s.client.messageRequests().toString());
      JsonObject item = result.getAsJsonObject("report").getAsJsonArray("sequences").get(0).getAsJsonObject()
          .getAsJsonArray("items").get(0).getAsJsonObject();
      assertEquals("Job/release-migrate", item.get("what").getAsString());
      assertEquals("migrated by the chart", item.getAsJsonArray("pods").get(0).getAsJsonObject()
          .getAsJsonArray("containers").get(0).getAsJsonObject().get("output").getAsString().strip());
    }
  }
}
