package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hooklens.core.text.Printable;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.w3c.dom.Document;

class LintCommandTest {
  static final String OVER_BUDGET = """
      apiVersion: v1
      kind: Pod
      metadata:
        name: web
      spec:
        terminationGracePeriodSeconds: 10
        containers:
          - name: app
            image: nginx
            lifecycle:
              preStop:
                exec:
                  command: ["sh", "-c", "nginx -s quit; sleep 20"]
      """;
  static final String CLEAN = """
      apiVersion: v1
      kind: Pod
      metadata:
        name: web
      spec:
        containers:
          - name: app
            image: nginx
      """;

  @TempDir
  Path dir;

  private Path write(String name, String text) throws Exception {
    Path p = dir.resolve(name);
    Files.createDirectories(p.getParent());
    Files.writeString(p, text, StandardCharsets.UTF_8);
    return p;
  }

  @Test
  void cleanFileExitsZero() throws Exception {
    CliRun r = CliRun.of("lint", write("ok.yaml", CLEAN).toString());
    assertEquals(0, r.exit(), r.err());
    assertTrue(r.out().contains("No problems in 1 file."), r.out());
  }

  @Test
  void findingsExitOneWithPositionRuleAndFrame() throws Exception {
    Path f = write("pod.yaml", OVER_BUDGET);
    CliRun r = CliRun.of("lint", f.toString());
    assertEquals(1, r.exit());
    assertTrue(r.out().contains(f + ":11:9: warning HL401 preStop of container \"app\" needs at least 20s"), r.out());
    assertTrue(r.out().contains("> 11 |         preStop:"), r.out());
    assertTrue(r.out().contains("^^^^^^^"), r.out());
    assertFalse(r.out().contains("\u001b["), "no colour when not on a terminal");
  }

  @Test
  void failOnThresholdDecidesTheExitCode() throws Exception {
    Path f = write("pod.yaml", OVER_BUDGET);
    assertEquals(0, CliRun.of("lint", "--fail-on", "error", f.toString()).exit());
    assertEquals(1, CliRun.of("lint", "--fail-on", "info", f.toString()).exit());
    assertEquals(0, CliRun.of("lint", "--fail-on", "never", f.toString()).exit());
  }

  @Test
  void usageAndInputErrorsExitTwo() throws Exception {
    CliRun missing = CliRun.of("lint", dir.resolve("nope.yaml").toString());
    assertEquals(2, missing.exit());
    assertTrue(missing.err().contains("no such file or directory"), missing.err());

    Path empty = Files.createDirectories(dir.resolve("empty"));
    Files.writeString(empty.resolve("notes.txt"), "hello");
    CliRun none = CliRun.of("lint", empty.toString());
    assertEquals(2, none.exit());
    assertTrue(none.err().contains("no .yaml, .yml or .json files found"), none.err());

    CliRun badFlag = CliRun.of("lint", "--format", "xml", "x.yaml");
    assertEquals(2, badFlag.exit());
    assertTrue(badFlag.err().contains("--format"), badFlag.err());

    CliRun badTarget = CliRun.of("lint", "--kubernetes-version", "latest", "x.yaml");
    assertEquals(2, badTarget.exit());
  }

  @Test
  void unreadableFileExitsTwoAndTheOthersAreStillLinted() throws Exception {
    Path good = write("pod.yaml", OVER_BUDGET);
    // /proc/self/mem exists but fails every read at offset 0, even for root.
    CliRun r = CliRun.of("lint", "--format", "json", "/proc/self/mem", good.toString());
    assertEquals(2, r.exit());
    assertTrue(r.err().contains("cannot read /proc/self/mem"), r.err());
    assertTrue(r.out().contains("\"HL401\""), r.out());
  }

  @Test
  void aMissingPathIsSaidInOneLineAndTheOthersAreReportedInFull() throws Exception {
    Path good = write("good.yaml", CLEAN);
    Path missing = dir.resolve("missing.yaml");
    Path bad = write("bad.yaml", OVER_BUDGET);
    CliRun text = CliRun.of("lint", good.toString(), missing.toString(), bad.toString());
    assertEquals(2, text.exit(), "an input error outranks findings");
    assertEquals(List.of("hooklens: " + missing + ": no such file or directory"), text.err().lines().toList());
    assertTrue(text.out().contains(bad + ":11:9: warning HL401"), text.out());
    assertTrue(text.out().endsWith("0 errors, 1 warning, 0 info in 2 files.\n"), text.out());

    CliRun json = CliRun.of("lint", "--format", "json", good.toString(), missing.toString(), bad.toString());
    assertEquals(2, json.exit());
    JsonNode root = new ObjectMapper().readTree(json.out());
    assertEquals("HL401", root.at("/findings/0/rule").asText());
    assertEquals(2, root.at("/summary/files").asInt(), "the files that were linted");
    assertEquals(1, root.at("/summary/warnings").asInt());

    String exitCodes = CliRun.of("lint", "--help").out();
    assertTrue(exitCodes.contains("outranks 1"), exitCodes);
  }

  @Test
  void binaryFileIsAFindingNotACrash() throws Exception {
    Path bin = dir.resolve("image.yaml");
    Files.write(bin, new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, 0, 0, 13});
    CliRun r = CliRun.of("lint", bin.toString());
    assertEquals(1, r.exit());
    assertTrue(r.out().contains("HL002 The file contains a NUL byte at offset 4"), r.out());
  }

  @Test
  void jsonIsThePublicContract() throws Exception {
    Path f = write("pod.yaml", CLEAN + "---\n" + OVER_BUDGET);
    CliRun r = CliRun.of("lint", "--format", "json", f.toString());
    JsonNode root = new ObjectMapper().readTree(r.out());
    assertEquals(1, root.get("version").asInt());
    assertEquals("hooklens", root.at("/tool/name").asText());
    assertFalse(root.at("/tool/version").asText().isEmpty());
    JsonNode finding = root.at("/findings/0");
    assertEquals("HL401", finding.get("rule").asText());
    assertEquals("prestop-budget-exceeds-grace", finding.get("name").asText());
    assertEquals("warning", finding.get("severity").asText());
    assertEquals(f.toString(), finding.get("file").asText());
    assertEquals(20, finding.at("/range/start/line").asInt());
    assertEquals(9, finding.at("/range/start/column").asInt());
    assertEquals(20, finding.at("/range/end/line").asInt());
    assertEquals(16, finding.at("/range/end/column").asInt());
    assertEquals("v1", finding.at("/resource/apiVersion").asText());
    assertEquals("Pod", finding.at("/resource/kind").asText());
    assertEquals("web", finding.at("/resource/name").asText());
    assertEquals(1, finding.at("/resource/document").asInt());
    assertEquals(15, finding.at("/related/0/range/start/line").asInt());
    assertEquals(1, root.at("/summary/warnings").asInt());
    assertEquals(1, root.at("/summary/files").asInt());
  }

  @Test
  void junitAndCheckstyleAreWellFormedXml() throws Exception {
    Path f = write("a&b.yaml", OVER_BUDGET);
    for (String format : new String[] {"junit", "checkstyle"}) {
      CliRun r = CliRun.of("lint", "--format", format, f.toString());
      Document xml = DocumentBuilderFactory.newInstance().newDocumentBuilder()
          .parse(new ByteArrayInputStream(r.out().getBytes(StandardCharsets.UTF_8)));
      String expectedRoot = format.equals("junit") ? "testsuites" : "checkstyle";
      assertEquals(expectedRoot, xml.getDocumentElement().getNodeName());
      assertTrue(r.out().contains("a&amp;b.yaml"), r.out());
    }
    CliRun junit = CliRun.of("lint", "--format", "junit", f.toString());
    assertTrue(junit.out().contains("failures=\"1\""), junit.out());
  }

  @Test
  void githubAnnotationsEscapeTheirProperties() throws Exception {
    Path f = write("dir,x/pod.yaml", OVER_BUDGET);
    CliRun r = CliRun.of("lint", "--format", "github", f.toString());
    String line = r.out().lines().findFirst().orElseThrow();
    assertTrue(line.startsWith("::warning file=" + f.toString().replace(",", "%2C") + ",line=11,col=9,endLine=11,"
        + "endColumn=16,title=HL401 prestop-budget-exceeds-grace::preStop of container"), line);
  }

  @Test
  void namesAndLinesFromTheManifestCannotRewriteTheTerminal() throws Exception {
    Path named = write("named.yaml", OVER_BUDGET.replace("- name: app", "- name: \"app\\e]0;pwned\\a\\r\\x9b2J\""));
    // YAML takes a bidirectional override as it is, not only as an escape.
    Path raw = write("raw.yaml", """
        apiVersion: v1
        kind: Pod
        metadata:
          name: web
          annotations: {note: "\u202e\u2066", helm.sh/hook: pre-instal}
        spec:
          containers:
            - name: app
              image: nginx
        """);
    for (String format : List.of("text", "github")) {
      CliRun r = CliRun.of("lint", "--format", format, "--color", "always", named.toString(), raw.toString());
      String shown = r.out().replaceAll("\u001b\\[[0-9;]*m", "");
      assertTrue(shown.codePoints().noneMatch(c -> c < 0x20 && c != '\n' || c >= 0x7f && c <= 0x9f || c == 0x202e),
          format + ": " + Printable.line(r.out()));
      assertTrue(shown.contains("preStop of container \"app\\x1b]0;pwned\\x07\\r\\u009b2J\" needs at least 20s"),
          shown);
    }
    CliRun text = CliRun.of("lint", "--color", "never", raw.toString());
    // The carets stay under the finding, whatever the escapes before it on the line.
    String line = "  annotations: {note: \"\\u202e\\u2066\", helm.sh/hook: pre-instal}";
    assertTrue(text.out().contains("> 5 | " + line + "\n    | " + " ".repeat(line.indexOf("pre-instal")) + "^^^^^^^^^^\n"),
        text.out());
  }

  @Test
  void standardInputUsesTheGivenName() throws Exception {
    InputStream saved = System.in;
    try {
      System.setIn(new ByteArrayInputStream(OVER_BUDGET.getBytes(StandardCharsets.UTF_8)));
      CliRun r = CliRun.of("lint", "--stdin-filename", "k8s/pod.yaml", "-");
      assertEquals(1, r.exit());
      assertTrue(r.out().startsWith("k8s/pod.yaml:11:9: warning HL401"), r.out());
    } finally {
      System.setIn(saved);
    }
  }

  @Test
  void configurationIsDiscoveredUpwardsAndExcludesApply() throws Exception {
    Path f = write("team/app/pod.yaml", OVER_BUDGET);
    write("team/gen/skip.yaml", OVER_BUDGET);
    write("team/.hooklens.yaml", """
        rules:
          HL401:
            severity: error
            params:
              shutdownSeconds: 5
        exclude:
          - gen/**
        """);
    CliRun r = CliRun.of("lint", "--fail-on", "error", dir.resolve("team").toString());
    assertEquals(1, r.exit(), r.out() + r.err());
    assertTrue(r.out().contains("error HL401"), r.out());
    assertTrue(r.out().contains("at least 25s"), "the configured parameter is used: " + r.out());
    assertFalse(r.out().contains("skip.yaml"), r.out());
    assertTrue(r.out().contains("in 1 file"), r.out());

    write("team/.hooklens.yaml", "rules:\n  prestop-budget-exceeds-grace: off\n");
    assertEquals(0, CliRun.of("lint", f.toString()).exit());
  }

  @Test
  void invalidConfigurationIsAUsageErrorWithPositions() throws Exception {
    Path f = write("pod.yaml", OVER_BUDGET);
    write(".hooklens.yaml", "rules:\n  HL401:\n    params:\n      shutdownSecs: 5\n  HL999: off\ntarget: {}\n");
    CliRun r = CliRun.of("lint", f.toString());
    assertEquals(2, r.exit());
    assertTrue(r.err().contains(".hooklens.yaml:4:7: HL401: unknown parameter shutdownSecs"), r.err());
    assertTrue(r.err().contains(".hooklens.yaml:5:3: \"HL999\" is not a rule id"), r.err());
    assertTrue(r.err().contains(".hooklens.yaml:6:1: unknown setting \"target\""), r.err());
  }

  @Test
  void suppressionsAreCountedInTheSummary() throws Exception {
    Path f = write("pod.yaml", OVER_BUDGET.replace("        preStop:",
        "        # hooklens:ignore HL401 the app exits on its own\n        preStop:"));
    CliRun r = CliRun.of("lint", f.toString());
    assertEquals(0, r.exit(), r.out());
    assertTrue(r.out().contains("No problems in 1 file (1 suppressed)."), r.out());
  }

  @ParameterizedTest(name = "{0} with reason \"{1}\"")
  @CsvSource(delimiter = '|', ignoreLeadingAndTrailingWhitespace = false, value = {
      "line|the app exits on its own", "line|", "line|   ",
      "file|the app exits on its own", "file|", "file|   ",
      "annotation|the app exits on its own", "annotation|", "annotation|   "})
  void everySuppressionAppliesAndOneWithoutAReasonIsReportedOnIt(String form, String reason) throws Exception {
    String why = reason == null ? "" : reason;
    String text = switch (form) {
      case "line" -> OVER_BUDGET.replace("        preStop:",
          "        # hooklens:ignore HL401 " + why + "\n        preStop:");
      case "file" -> "# hooklens:ignore-file HL401 " + why + "\n" + OVER_BUDGET;
      default -> OVER_BUDGET.replace("  name: web\n", "  name: web\n  annotations:\n    hooklens.io/ignore-HL401: \""
          + why + "\"\n");
    };
    CliRun r = CliRun.of("lint", "--format", "json", write("pod.yaml", text).toString());
    JsonNode root = new ObjectMapper().readTree(r.out());
    assertEquals(1, root.at("/summary/suppressed").asInt(), text);
    List<JsonNode> findings = new ArrayList<>();
    root.get("findings").forEach(findings::add);
    if (!why.isBlank()) {
      assertEquals(0, r.exit(), r.out());
      assertEquals(List.of(), findings, text);
      return;
    }
    assertEquals(1, r.exit(), r.out());
    assertEquals(1, findings.size(), r.out());
    JsonNode asks = findings.get(0);
    assertEquals("HL004", asks.get("rule").asText());
    assertTrue(asks.get("message").asText().contains("needs a reason"), r.out());
    int suppressionLine = text.lines().toList().indexOf(text.lines().filter(l -> l.contains("hooklens")).findFirst()
        .orElseThrow()) + 1;
    assertEquals(suppressionLine, asks.at("/range/start/line").asInt(), "HL004 points at the suppression");
  }

  @Test
  void outputFileIsWrittenWhole() throws Exception {
    Path f = write("pod.yaml", OVER_BUDGET);
    Path out = dir.resolve("report.sarif");
    CliRun r = CliRun.of("lint", "--format", "sarif", "--output", out.toString(), f.toString());
    assertEquals(1, r.exit());
    assertEquals("", r.out());
    assertTrue(Files.readString(out).contains("\"ruleId\" : \"HL401\""));
    try (var files = Files.list(dir)) {
      assertTrue(files.noneMatch(p -> p.getFileName().toString().endsWith(".tmp")), "no temporary file is left");
    }
  }

  @Test
  void targetFlagOverridesTheDefault() throws Exception {
    CliRun r = CliRun.of("lint", "--kubernetes-version", "1.29", write("pod.yaml", CLEAN).toString());
    assertEquals(0, r.exit(), r.err());
  }

  private static final String STAYING_HOOK = """
      apiVersion: batch/v1
      kind: Job
      metadata:
        name: migrate
        annotations:
          helm.sh/hook: pre-upgrade
          helm.sh/hook-delete-policy: hook-failed
      spec:
        template:
          spec:
            restartPolicy: Never
            containers:
              - name: migrate
                image: busybox
      """;

  @Test
  void helmVersionAndDeployerComeFromTheConfigurationAndFlagsWin() throws Exception {
    Path hook = write("chart/hook.yaml", STAYING_HOOK);
    assertTrue(CliRun.of("lint", hook.toString()).out().contains("Helm 3 fails to create it"));
    assertTrue(CliRun.of("lint", "--helm-version", "4", hook.toString()).out().contains("Helm 4 applies the hook"));

    write("chart/.hooklens.yaml", "targets:\n  helm: \"4\"\n  deployer: flux\n");
    assertTrue(CliRun.of("lint", hook.toString()).out().contains("Flux's helm-controller (Helm 4) applies"));
    CliRun argo = CliRun.of("lint", "--deployer", "argocd", hook.toString());
    assertEquals(1, argo.exit(), argo.err());
    assertTrue(argo.out().contains("Argo CD applies the hook over it"), argo.out());
    assertTrue(CliRun.of("lint", "--helm-version", "3", hook.toString()).out()
        .contains("Flux's helm-controller (Helm 3) fails"), "a flag replaces one target and keeps the others");
  }

  @Test
  void badTargetFlagsAndSettingsAreUsageErrors() throws Exception {
    Path hook = write("hook.yaml", STAYING_HOOK);
    CliRun helm2 = CliRun.of("lint", "--helm-version", "2", hook.toString());
    assertEquals(2, helm2.exit());
    assertTrue(helm2.err().contains("--helm-version': must be 3 or 4, not \"2\""), helm2.err());
    CliRun spinnaker = CliRun.of("lint", "--deployer", "spinnaker", hook.toString());
    assertEquals(2, spinnaker.exit());
    assertTrue(spinnaker.err().contains("must be helm, argocd or flux"), spinnaker.err());

    write(".hooklens.yaml", "targets: {deployer: kustomize}\n");
    CliRun config = CliRun.of("lint", hook.toString());
    assertEquals(2, config.exit());
    assertTrue(config.err().contains(".hooklens.yaml:1:21: targets.deployer must be helm, argocd or flux"),
        config.err());
  }
}
