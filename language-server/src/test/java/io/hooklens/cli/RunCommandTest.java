package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hooklens.TestPaths;
import io.hooklens.Timing;
import io.hooklens.core.text.Printable;
import io.hooklens.run.kube.BoundedOutput;
import io.hooklens.run.report.TextReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

/**
 * `hooklens run` in-process, with a real embedded cluster and real processes in bubblewrap. Grace periods
 * are 2 s, so that each run takes a few seconds.
 */
@Tag("slow")
class RunCommandTest {
  @TempDir
  Path dir;

  private static String manifest(String name) {
    return TestPaths.repoRoot().resolve("language-server/src/test/resources/run").resolve(name).toString();
  }

  private static long field(JsonNode node, String name) {
    assertTrue(node.has(name) && node.get(name).isNumber(), name + " in " + node);
    return node.get(name).asLong();
  }

  @Test
  void aPreStopThatOverrunsTheGracePeriodIsCutOffAndTheAppSigkilledAsHl401Predicts() throws Exception {
    Path svg = dir.resolve("timeline.svg");
    CliRun r = CliRun.of("run", "--yes", "--format", "json", "--timeline", svg.toString(), manifest("overrun.yaml"));
    assertEquals(1, r.exit(), r.err());
    JsonNode report = new ObjectMapper().readTree(r.out());
    assertEquals(1, report.get("version").asInt());
    assertEquals("embedded", report.get("target").asText());
    assertTrue(field(report, "clusterStartMs") > 0, report.toString());
    assertTrue(report.get("isolated").asBoolean());
    assertFalse(report.get("succeeded").asBoolean());
    JsonNode step = report.get("steps").get(0);
    assertEquals("Pod/overrun", step.get("resource").asText());
    assertEquals(2, step.get("graceSeconds").asInt());
    long delete = field(step, "deleteMs");

    JsonNode hook = step.get("hooks").get(0);
    assertEquals("preStop", hook.get("hook").asText());
    assertEquals("app", hook.get("container").asText());
    assertEquals("cut-off", hook.get("status").asText());
    assertEquals("grace period of 2 s is over", hook.get("message").asText(), hook.toString());
    assertEquals("exec sh -c 'echo draining; sleep 6'", hook.get("handler").asText());
    assertTrue(hook.get("output").asText().contains("draining"), hook.toString());
    Timing.assertAt(2000, field(hook, "endMs") - field(hook, "startMs"), "preStop until cut off");

    List<String> signals = new ArrayList<>();
    for (JsonNode s : step.get("signals")) {
      signals.add(s.get("signal").asText());
      long at = field(s, "atMs") - delete;
      Timing.assertAt("SIGTERM".equals(s.get("signal").asText()) ? 2000 : 4000, at, s.get("signal").asText());
    }
    assertEquals(List.of("SIGTERM", "SIGKILL"), signals);
    JsonNode app = step.get("containers").get(0);
    assertEquals(137, app.get("exitCode").asInt());

    JsonNode verdict = step.get("verdicts").get(0);
    assertFalse(verdict.get("ok").asBoolean());
    assertEquals("HL401", verdict.get("rules").get(0).asText());
    assertTrue(verdict.get("text").asText().contains("the app was SIGKILLed"), verdict.toString());
    assertEquals("HL401", verdict.get("predicted").get(0).get("rule").asText(), "lint's finding on the same hook");
    List<String> reasons = new ArrayList<>();
    step.get("events").forEach(e -> reasons.add(e.get("reason").asText()));
    // The abandoned hook fails when SIGKILL ends its container, as the kubelet's goroutine does.
    assertEquals(List.of("Scheduled", "Created", "Started", "Killing", "FailedPreStopHook"), reasons);

    Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(svg.toFile());
    assertEquals("svg", doc.getDocumentElement().getTagName());
    String text = Files.readString(svg);
    assertTrue(text.contains("grace period ends") && text.contains("app preStop") && text.contains("SIGKILL"), text);
    assertTrue(r.err().contains("timeline written to " + svg), r.err());
  }

  @Test
  void aPreStopThatFitsSucceedsAndTheTextReportShowsTimelineEventsOutputAndVerdicts() {
    CliRun r = CliRun.of("run", "--yes", "--color", "never", manifest("clean.yaml"));
    assertEquals(0, r.exit(), r.err() + r.out());
    String out = r.out();
    assertTrue(out.matches("(?s)cluster: embedded, ready [0-9]+\\.[0-9] s after it was started\n\n"
        + "Deployment/clean → pod clean-deployment \\(namespace default, grace period 2 s\\)\n.*"), out);
    for (String expected : List.of("Start (0 = pod created)", "Termination (0 = deletion, grace period 2 s)",
        "app preStop", "Events", "Killing", "| started from postStart", "| bye",
        "✓ app: postStart succeeded in", "static analysis: no finding on this hook")) {
      assertTrue(out.contains(expected), expected + " in:\n" + out);
    }
    // The hook sleeps 0.5 s; the report gives what this run measured.
    Matcher took = Pattern.compile("✓ app: preStop took ([0-9.]+) s of the 2 s grace period; the app stopped")
        .matcher(out);
    assertTrue(took.find(), out);
    Timing.assertAt(500, Math.round(Double.parseDouble(took.group(1)) * 1000), "preStop in the text report");
    assertFalse(out.contains("\u001b["), "no colour when asked for none");
    // Progress as it happened, on standard error.
    for (String expected : List.of("pod created", "postStart of \"app\" started", "container \"app\" Running",
        "deleting (grace period 2 s)", "preStop of \"app\" started", "SIGTERM to \"app\"", "exited: exit code 0")) {
      assertTrue(r.err().contains(expected), expected + " in:\n" + r.err());
    }
  }

  @Test
  void envtestWithoutBinariesRunsOnTheEmbeddedClusterAndThePlanProgressAndBothReportsSaySo() throws Exception {
    Path empty = Files.createDirectory(dir.resolve("empty"));
    String missing = "no etcd and no kube-apiserver in " + empty + " (--kube-assets)";
    CliRun json = CliRun.of("run", "--yes", "--cluster", "envtest", "--kube-assets", empty.toString(), "--format",
        "json", manifest("clean.yaml"));
    assertEquals(0, json.exit(), json.err());
    assertTrue(json.err().contains("on this machine (the embedded cluster instead of a control plane: " + missing
        + ")"), json.err());
    assertTrue(json.err().contains("cluster: " + missing + ", so this ran on the embedded cluster"), json.err());
    JsonNode report = new ObjectMapper().readTree(json.out());
    assertEquals("embedded", report.get("target").asText());
    String note = report.get("notes").get(0).asText();
    assertTrue(note.startsWith(missing + ", so this ran on the embedded cluster (fabric8's mock API, which "
        + "validates and defaults nothing) instead; get them with setup-envtest") && note.contains("setup-envtest "
        + "use 1.36.x") && note.contains("scripts/kube-assets.sh"), note);
    CliRun text = CliRun.of("run", "--yes", "--cluster", "envtest", "--kube-assets", empty.toString(), "--color",
        "never", manifest("clean.yaml"));
    assertEquals(0, text.exit(), text.err());
    assertTrue(text.out().strip().endsWith("warning: " + note), text.out());
  }

  @Test
  void aPostStartThatCallsItsOwnAppBeforeItListensFailsKillsTheContainerAndConfirmsHl122() throws Exception {
    CliRun r = CliRun.of("run", "--yes", "--format", "json", manifest("poststart-own-app.yaml"));
    assertEquals(1, r.exit(), r.err());
    JsonNode step = new ObjectMapper().readTree(r.out()).get("steps").get(0);
    JsonNode hook = step.get("hooks").get(0);
    assertEquals("postStart", hook.get("hook").asText());
    assertEquals("failed", hook.get("status").asText());
    assertEquals("httpGet GET http://<pod IP>:8080/warm-up (to the pod's own IP, as the kubelet sends it)",
        hook.get("handler").asText());
    List<String> reasons = new ArrayList<>();
    step.get("events").forEach(e -> reasons.add(e.get("reason").asText()));
    assertTrue(reasons.contains("FailedPostStartHook"), reasons.toString());
    assertTrue(step.get("containers").get(0).get("runningMs").isNull(), "never Running");
    JsonNode verdict = step.get("verdicts").get(0);
    assertTrue(verdict.get("text").asText().startsWith("postStart failed after"), verdict.toString());
    assertTrue(verdict.get("text").asText().contains("the container was killed and FailedPostStartHook recorded"),
        verdict.toString());
    assertEquals("HL122", verdict.get("rules").get(0).asText(), verdict.toString());
    assertTrue(verdict.get("text").asText().endsWith("— see HL122"), verdict.toString());
    // The kubelet restarts the killed container at once, and its postStart fails again: one verdict says so.
    JsonNode app = step.get("containers").get(0);
    int runs = app.get("attempts").size();
    assertEquals(runs, step.get("hooks").size(), step.get("hooks").toString());
    assertEquals(1, step.get("verdicts").size());
    assertTrue(runs == 1 || verdict.get("text").asText().contains("; it failed in " + runs + " of " + runs + " runs"),
        verdict.toString());
  }

  @Test
  void aCrashingContainerShowsEveryRunWithItsExitBackOffAndOutputInTextJsonAndSvg() throws Exception {
    Path svg = dir.resolve("timeline.svg");
    CliRun json = CliRun.of("run", "--yes", "--format", "json", "--timeline", svg.toString(),
        manifest("crashing-container.yaml"));
    JsonNode step = new ObjectMapper().readTree(json.out()).get("steps").get(0);
    JsonNode app = step.get("containers").get(0);
    assertEquals("app", app.get("name").asText());
    JsonNode attempts = app.get("attempts");
    assertEquals(2, attempts.size(), app.toString());
    assertEquals(1, app.get("restartCount").asInt(), app.toString());
    for (int i = 0; i < attempts.size(); i++) {
      assertEquals(i, attempts.get(i).get("restartCount").asInt());
      assertEquals(3, attempts.get(i).get("exitCode").asInt(), attempts.toString());
      assertEquals("Error", attempts.get(i).get("reason").asText());
    }
    long restartedAfter = field(attempts.get(0), "backOffMs");
    assertEquals(restartedAfter, field(attempts.get(1), "startedMs") - field(attempts.get(0), "exitedMs"));
    assertTrue(attempts.get(1).get("backOffMs").isNull(), "the second run waits in back-off past the deletion");
    assertEquals(field(attempts.get(1), "exitedMs"), field(app, "exitedMs"), "the container ended as its last run");
    for (int i = 0; i < attempts.size(); i++) {
      assertEquals("starting run " + (i + 1) + "\nmissing-tool: not found\n", attempts.get(i).get("output").asText(),
          "each run's own output: " + attempts);
    }
    assertEquals("starting run 1\nmissing-tool: not found\nstarting run 2\nmissing-tool: not found\n",
        app.get("output").asText(), "the container's output is its runs' in order");
    JsonNode web = step.get("containers").get(1);
    assertTrue(web.get("output").asText().isEmpty(), web.toString());
    assertTrue(field(web, "startedMs") > field(attempts.get(0), "startedMs"), "web starts after app");

    String lines = Files.readString(svg);
    Matcher runs = Pattern.compile("<line [^>]*stroke-width=\"2\"/>").matcher(lines);
    assertTrue(runs.results().count() >= 3, "a line per run of app and one for web:\n" + lines);
    assertTrue(lines.contains("container running") && lines.contains(">exit</text>"), "the legend:\n" + lines);

    CliRun text = CliRun.of("run", "--yes", "--color", "never", manifest("crashing-container.yaml"));
    for (String expected : List.of("echo starting run $n; echo missing-tool: not found >&2; exit 3' "
        + "(restartCount 1)", "    run 1: started at ", "    run 2: started at ", "exit 3 (Error) at",
        "; the next run started ", "      | missing-tool: not found", "2 runs; exit 3 at")) {
      assertTrue(text.out().contains(expected), expected + " in:\n" + text.out());
    }
    assertTrue(text.out().matches("(?s).*    run 2: [^\n]*\n      \\| starting run 2\n.*"), "each run's output under it:\n"
        + text.out());
    assertTrue(lines.contains(">output of app, run 2</text>"), lines);
  }

  @Test
  void aHookCreatedAgainIsReplacedUnderBeforeHookCreationAndRefusedWithTheApiServersOwnWordsOtherwise()
      throws Exception {
    CliRun json = CliRun.of("run", "--yes", "--format", "json", "--event", "install", manifest("hook-twice.yaml"));
    assertEquals(1, json.exit(), json.err());
    JsonNode sequence = new ObjectMapper().readTree(json.out()).get("sequences").get(0);
    List<String> replaced = new ArrayList<>();
    String refused = null;
    for (JsonNode item : sequence.get("items")) {
      if (item.get("replacedExisting").asBoolean()) {
        replaced.add(item.get("group").asText() + " " + item.get("what").asText());
      }
      if ("not-created".equals(item.get("outcome").asText())) {
        refused = item.get("message").asText();
      }
    }
    assertEquals(List.of("post-install ConfigMap/replaced"), replaced, sequence.toString());
    assertTrue(refused != null && refused.startsWith("warning: Hook post-install ConfigMap/kept failed: ")
        && refused.contains("already exists") && !refused.contains("Failure executing")
        && !refused.contains("Received status"), refused);
    assertEquals(refused, sequence.get("error").asText());

    CliRun text = CliRun.of("run", "--yes", "--color", "never", "--event", "install", manifest("hook-twice.yaml"));
    assertTrue(text.out().contains("    before-hook-creation deleted the ConfigMap/replaced an earlier run left, "
        + "then created it anew"), text.out());
    assertFalse(text.out().contains("Received status"), text.out());
  }

  @Test
  void aFailedHooksOutputIsShownOnceAsLinesNotQuotedAgainInItsMessageAndVerdict() throws Exception {
    CliRun r = CliRun.of("run", "--yes", "--color", "never", manifest("failing-prestop.yaml"));
    assertEquals(1, r.exit(), r.err());
    String out = r.out();
    assertTrue(out.contains("exited with 2; see its output\n    output:\n      | first line\n      | answer 42\n"), out);
    assertEquals(1, out.split("answer 42", -1).length - 1, "the output once:\n" + out);
    assertFalse(out.contains("\\n"), out);
  }

  /** No C0 control but line feed and tab, no DEL, no C1 control, no character that reorders a line. */
  private static void assertPrintable(String text, String what) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean control = c < 0x20 && c != '\n' && c != '\t' || c >= 0x7f && c <= 0x9f || c == '\u202e';
      assertFalse(control, String.format(Locale.ROOT, "%s: U+%04X at %d: %s", what, (int) c, i,
          Printable.line(text.substring(Math.max(0, i - 60), Math.min(text.length(), i + 60)))));
    }
  }

  @Test
  void aHookThatPrintsAMegabyteOfTerminalSequencesCannotRewriteTheTerminal() throws Exception {
    String printed = "\u001b]0;title\u0007\u001b[2J\r\b\u0000 done\n";
    String container = "app\\x1b[2J\\r\\x08\\u009b31m\\u202e";

    CliRun text = CliRun.of("run", "--yes", "--color", "never", manifest("hostile.yaml"));
    assertEquals(1, text.exit(), text.err());
    assertPrintable(text.out(), "text report");
    assertPrintable(text.err(), "plan and progress");
    assertTrue(text.err().contains("Pod/web\\x1b]0;pwned\\x07 (" + manifest("hostile.yaml") + ":3)"), text.err());
    assertTrue(text.err().contains("container \"" + container + "\" runs: sh -c"), text.err());
    assertTrue(text.err().contains("preStop of \"" + container + "\" failed: command 'sh -c head -c 1048576"),
        text.err());
    assertTrue(text.err().contains("xxx\\x1b]0;title\\x07\\x1b[2J\\r\\x08\\x00 done\n"), text.err());
    Matcher notShown = Pattern.compile("\n      … ([0-9,]+) earlier bytes not shown\n      \\| x+"
        + "\\\\x1b]0;title\\\\x07\\\\x1b\\[2J\\\\r\\\\x08\\\\x00 done\n").matcher(text.out());
    assertTrue(notShown.find(), text.out());
    // The line break at the end is neither shown nor earlier.
    assertEquals(1_048_576 + printed.length() - 1 - TextReport.OUTPUT_BYTES,
        Long.parseLong(notShown.group(1).replace(",", "")));

    CliRun json = CliRun.of("run", "--yes", "--format", "json", manifest("hostile.yaml"));
    assertEquals(1, json.exit(), json.err());
    JsonNode hook = new ObjectMapper().readTree(json.out()).get("steps").get(0).get("hooks").get(0);
    assertEquals("app\u001b[2J\r\b\u009b31m\u202e", hook.get("container").asText());
    String output = hook.get("output").asText();
    assertEquals(BoundedOutput.KEPT_BYTES, output.length());
    assertTrue(output.endsWith("xxx" + printed), Printable.line(output.substring(output.length() - 40)));
    assertEquals(1_048_576 + printed.length() - BoundedOutput.KEPT_BYTES, hook.get("outputDroppedBytes").asLong());
  }

  @Test
  void withoutATerminalOrYesNothingRuns() {
    CliRun r = CliRun.of("run", manifest("overrun.yaml"));
    assertEquals(2, r.exit());
    assertTrue(r.err().contains("container \"app\" runs: sh -c 'while true; do sleep 0.1; done'"), r.err());
    assertTrue(r.err().contains("preStop: exec sh -c 'echo draining; sleep 6'"), r.err());
    assertTrue(r.err().contains("nothing ran") && r.err().contains("--yes"), r.err());
    assertFalse(r.err().contains("pod created"), r.err());
    assertEquals("", r.out());
  }

  @Test
  void aContainerWithoutCommandIsRefusedBeforeAnythingRuns() throws Exception {
    Path file = dir.resolve("nocommand.yaml");
    Files.writeString(file, """
        apiVersion: v1
        kind: Pod
        metadata:
          name: web
        spec:
          containers:
            - name: nginx
              image: nginx:1.27
              lifecycle:
                preStop:
                  sleep:
                    seconds: 1
        """);
    CliRun r = CliRun.of("run", "--yes", file.toString());
    assertEquals(2, r.exit());
    assertTrue(r.err().contains("container \"nginx\" has no command") && r.err().contains("--image nginx:1.27="),
        r.err());
  }

  @Test
  void selectionsThatMatchNothingSayWhatThereIs() {
    CliRun resource = CliRun.of("run", "--yes", "--resource", "Deployment/nope", manifest("clean.yaml"));
    assertEquals(2, resource.exit());
    assertTrue(resource.err().contains("objects with hooks: Deployment/clean"), resource.err());
    CliRun container = CliRun.of("run", "--yes", "--container", "nope", manifest("clean.yaml"));
    assertEquals(2, container.exit());
    assertTrue(container.err().contains("no container \"nope\""), container.err());
  }
}
