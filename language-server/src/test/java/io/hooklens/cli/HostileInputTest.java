package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hooklens.ChildJvm;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile input given to the real command line, a JVM of its own with a bounded heap and a deadline: every case
 * of issue 14, generated here. Whatever the input, the CLI ends in time, within its heap, with a documented exit
 * code other than 3 (internal error), without a stack trace, and says what is wrong, where, when a place applies.
 */
@Tag("slow")
class HostileInputTest {
  /** Generous: a case that takes this long hangs. */
  private static final Duration DEADLINE = Duration.ofMinutes(3);
  private static final Set<Integer> DOCUMENTED = Set.of(ExitCodes.CLEAN, ExitCodes.FINDINGS, ExitCodes.USAGE);
  private static final Pattern STACK_TRACE =
      Pattern.compile("(?m)^\\s+at [\\w$.]+\\(|Exception in thread|java\\.lang\\.\\w+(Exception|Error)\\b");
  private static final ObjectMapper JSON = new ObjectMapper();
  /** A hook that Helm skips: HL201 on line 6, a real finding that shows a file was read to the end. */
  private static final String UNKNOWN_EVENT_LINE = "    helm.sh/hook: pre-instal\n";

  @TempDir
  Path dir;

  private static String job(String name) {
    return "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: " + name + "\n  annotations:\n" + UNKNOWN_EVENT_LINE
        + "spec:\n  template:\n    spec:\n      restartPolicy: Never\n"
        + "      containers: [{name: main, image: busybox}]\n";
  }

  /**
   * Runs {@code hooklens ARGS} with a heap of 128 MiB plus 8 times the largest input: the memory goal of issue 14
   * (peak memory at most about 8 times the largest file) on top of what the JVM needs to start. Running out of
   * it ends the process with exit 3, which {@link #sane} refuses.
   */
  private ChildJvm hooklens(long largestInput, String... args) throws IOException, InterruptedException {
    long heapMib = 128 + 8 * (largestInput >> 20);
    return ChildJvm.run(dir, List.of("-Xmx" + heapMib + "m", "-XX:+ExitOnOutOfMemoryError"), DEADLINE, Main.class,
        args);
  }

  private ChildJvm hooklens(String... args) throws IOException, InterruptedException {
    return hooklens(0, args);
  }

  /** A documented exit code, not an internal error, and no stack trace. */
  private static ChildJvm sane(ChildJvm r) {
    String what = "exit " + r.exit() + "\nstderr:\n" + cut(r.err()) + "\nstdout:\n" + cut(r.out());
    assertTrue(DOCUMENTED.contains(r.exit()), what);
    assertFalse(STACK_TRACE.matcher(r.err()).find(), "a stack trace: " + what);
    assertFalse(STACK_TRACE.matcher(r.out()).find(), "a stack trace: " + what);
    return r;
  }

  private static String cut(String s) {
    return s.length() > 1000 ? s.substring(0, 1000) + "... (" + s.length() + " characters)" : s;
  }

  /** The findings of a JSON report on files whose name ends so. */
  private static List<JsonNode> findings(ChildJvm r, String fileSuffix) throws IOException {
    List<JsonNode> out = new ArrayList<>();
    for (JsonNode f : JSON.readTree(r.out()).get("findings")) {
      if (f.get("file").asText().endsWith(fileSuffix)) {
        out.add(f);
      }
    }
    return out;
  }

  private static JsonNode only(List<JsonNode> findings, String rule, String what) {
    List<JsonNode> of = findings.stream().filter(f -> f.get("rule").asText().equals(rule)).toList();
    assertEquals(1, of.size(), what + ": one " + rule + " in " + findings);
    return of.get(0);
  }

  private static int line(JsonNode finding) {
    return finding.get("range").get("start").get("line").asInt();
  }

  private Path write(String name, String text) throws IOException {
    return write(name, text.getBytes(StandardCharsets.UTF_8));
  }

  private Path write(String name, byte[] bytes) throws IOException {
    Path p = dir.resolve(name);
    Files.createDirectories(p.getParent());
    Files.write(p, bytes);
    return p;
  }

  @Test
  void astralCharactersOnTheReadersWindowBoundariesAreRead() throws Exception {
    // snakeyaml-engine reads in windows of 1024 code points; a surrogate pair across a window's end crashed it.
    String head = job("notes").replace(UNKNOWN_EVENT_LINE, UNKNOWN_EVENT_LINE + "    notes: \"");
    List<String> names = new ArrayList<>();
    for (int boundary : new int[] {1024, 2049}) {
      for (int at = boundary - 4; at <= boundary + 3; at++) {
        String name = "notes-" + at + ".yaml";
        write("notes/" + name, head + "a".repeat(at - head.length()) + "\uD83D\uDE80\u2705\uD83D\uDCDA release\"\n");
        names.add(name);
      }
    }
    String dense = "\uD83D\uDE80".repeat(1200);
    write("notes/dense-even.yaml", head + dense + "\"\n");
    write("notes/dense-odd.yaml", head + "a" + dense + "\"\n");
    names.addAll(List.of("dense-even.yaml", "dense-odd.yaml"));

    ChildJvm r = sane(hooklens("lint", "-f", "json", dir.resolve("notes").toString()));
    assertEquals(ExitCodes.FINDINGS, r.exit(), r.err());
    for (String name : names) {
      assertEquals(6, line(only(findings(r, name), "HL201", name)), name);
    }
  }

  @Test
  void chartsThatRenderNothingAreLintedAndTheRestOfTheRunGoesOn() throws Exception {
    String chartYaml = "apiVersion: v2\nname: %s\nversion: 0.1.0\n";
    write("charts/empty-template/Chart.yaml", chartYaml.formatted("empty-template"));
    write("charts/empty-template/templates/empty.yaml", "");
    write("charts/all-false/Chart.yaml", chartYaml.formatted("all-false"));
    write("charts/all-false/values.yaml", "enabled: false\n");
    write("charts/all-false/templates/job.yaml", "{{- if .Values.enabled }}\n" + job("x") + "{{- end }}\n");
    write("charts/no-templates/Chart.yaml", chartYaml.formatted("no-templates"));
    write("charts/no-templates/values.yaml", "replicas: 1\n");
    write("charts/job.yaml", job("plain"));

    ChildJvm r = sane(hooklens("lint", "-f", "json", dir.resolve("charts").toString()));
    assertEquals(6, line(only(findings(r, "job.yaml").stream()
        .filter(f -> f.get("file").asText().endsWith("charts/job.yaml")).toList(), "HL201", "the plain manifest")));
    for (String chart : List.of("empty-template", "all-false", "no-templates")) {
      Path c = dir.resolve("charts").resolve(chart);
      sane(hooklens("lint", c.toString()));
      sane(hooklens("hooks", c.toString()));
      sane(hooklens("lint", "--fix", c.toString()));
    }
  }

  @Test
  void aJsonListOfTenThousandDeploymentsIsLintedNotTakenForAnAliasBomb() throws Exception {
    StringBuilder sb = new StringBuilder("{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"List\",\n  \"items\": [\n");
    int items = 10_000;
    List<Integer> overrunLines = new ArrayList<>();
    for (int i = 0; i < items; i++) {
      boolean overrun = i == 0 || i == items - 1;
      if (overrun) {
        // The preStop key is on the item's thirteenth line.
        overrunLines.add((int) sb.chars().filter(c -> c == '\n').count() + 13);
      }
      sb.append(deployment(i, overrun)).append(i + 1 < items ? ",\n" : "\n");
    }
    sb.append("  ]\n}\n");
    Path list = write("list.json", sb.toString());

    ChildJvm r = sane(hooklens(Files.size(list), "lint", "-f", "json", list.toString()));
    List<JsonNode> found = findings(r, "list.json");
    assertTrue(found.stream().noneMatch(f -> f.get("message").asText().contains("alias")), cut(r.out()));
    List<Integer> lines = found.stream().filter(f -> f.get("rule").asText().equals("HL401")).map(f -> line(f))
        .toList();
    assertEquals(overrunLines, lines, cut(r.out()));
  }

  /**
   * A Deployment of about seventy nodes, as in issue 14's measurement (680,000 nodes for 10,000); an overrun's
   * preStop needs longer than its grace period (HL401).
   */
  private static String deployment(int i, boolean overrun) {
    String command = overrun ? "\"sleep\", \"90\"" : "\"nginx\", \"-s\", \"quit\"";
    return """
            {"apiVersion": "apps/v1", "kind": "Deployment",
             "metadata": {"name": "web-%d", "labels": {"app": "web", "tier": "front"},
              "annotations": {"team": "web"}},
             "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web-%d"}},
              "template": {"metadata": {"labels": {"app": "web-%d"}},
               "spec": {"terminationGracePeriodSeconds": 60,
                "containers": [{"name": "web", "image": "nginx:1.27", "args": ["-g", "daemon off;"],
                 "ports": [{"name": "http", "containerPort": 8080}, {"name": "admin", "containerPort": 9090}],
                 "env": [{"name": "MODE", "value": "prod"}, {"name": "LOG", "value": "json"}],
                 "resources": {"requests": {"cpu": "100m", "memory": "64Mi"}, "limits": {"memory": "128Mi"}},
                 "readinessProbe": {"httpGet": {"path": "/ready", "port": "http"}, "periodSeconds": 5},
                 "lifecycle": {
                  "preStop": {"exec": {"command": [%s]}}}}]}}}}\
        """.formatted(i, i, i, command);
  }

  @Test
  void aFourMegabyteScalarOnOneLineIsLintedAndItsCodeFrameCut() throws Exception {
    String annotations = "  annotations:\n" + UNKNOWN_EVENT_LINE;
    Path file = write("big.yaml", job("big").replace(annotations,
        "  annotations: {helm.sh/hook: pre-instal, blob: \"" + "x".repeat(4 << 20) + "\"}\n"));

    ChildJvm r = sane(hooklens(Files.size(file), "lint", file.toString()));
    assertEquals(ExitCodes.FINDINGS, r.exit(), cut(r.err()));
    assertTrue(r.out().contains("big.yaml:5:"), "the finding with its place: " + cut(r.out()));
    assertTrue(r.out().length() < 64 * 1024, "a code frame a person can read, not " + r.out().length()
        + " characters: " + cut(r.out()));
  }

  @Test
  void controlCharactersAndWorkflowCommandsInNamesAreShownEscapedAndReportedExactly() throws Exception {
    String retitle = "\u001b]0;pwned\u0007\u001b[2J";
    String workflow = "x\n::error file=a.yaml,line=1::injected";
    String stop = "::stop-commands::token";
    String manifest = """
        apiVersion: batch/v1
        kind: Job
        metadata:
          name: "%s"
        spec:
          template:
            spec:
              restartPolicy: Never
              containers:
                - name: "%s"
                  image: busybox
                  lifecycle: {preStop: {exec: {command: [sleep, "40"]}}}
                - name: "%s"
                  image: busybox
                  lifecycle: {preStop: {exec: {command: [sleep, "40"]}}}
                - name: "%s"
                  image: busybox
                  lifecycle: {preStop: {exec: {command: [sleep, "40"]}}}
        """.formatted(yamlEscape(retitle), yamlEscape(retitle), yamlEscape(workflow), yamlEscape(stop));
    Path file = write("names.yaml", manifest);

    for (String format : List.of("text", "github")) {
      ChildJvm r = sane(hooklens("lint", "-f", format, file.toString()));
      assertEquals(ExitCodes.FINDINGS, r.exit(), format);
      assertTrue(r.out().contains("pwned"), format + ": the name is shown: " + r.out());
      assertTrue(r.out().chars().noneMatch(c -> c < 0x20 && c != '\n' && c != '\t' || c == 0x7f),
          format + ": control characters in " + r.out());
      for (String line : r.out().split("\n", -1)) {
        boolean command = line.stripLeading().startsWith("::");
        if (format.equals("text")) {
          assertFalse(command, "a workflow command in the text report: " + line);
        } else if (command) {
          assertTrue(line.matches("::(error|warning|notice) file=.*"), "a workflow command of its own: " + line);
        }
      }
    }
    ChildJvm json = sane(hooklens("lint", "-f", "json", file.toString()));
    String messages = String.join("\n", findings(json, "names.yaml").stream().map(f -> f.get("message").asText())
        .toList());
    for (String name : List.of(retitle, workflow, stop)) {
      assertTrue(messages.contains(name), "JSON keeps " + name.replace("\u001b", "ESC") + " exactly: " + messages);
    }
    ChildJvm sarif = sane(hooklens("lint", "-f", "sarif", file.toString()));
    String sarifMessages = String.join("\n", JSON.readTree(sarif.out()).get("runs").get(0).get("results")
        .findValues("text").stream().map(JsonNode::asText).toList());
    for (String name : List.of(retitle, workflow, stop)) {
      assertTrue(sarifMessages.contains(name), "SARIF keeps " + name.replace("\u001b", "ESC") + " exactly");
    }
  }

  private static String yamlEscape(String s) {
    StringBuilder sb = new StringBuilder();
    s.chars().forEach(c -> {
      if (c < 0x20 || c == '"' || c == '\\') {
        sb.append(String.format("\\x%02x", c));
      } else {
        sb.append((char) c);
      }
    });
    return sb.toString();
  }

  @Test
  void utf16AndUtf32FilesGetAMessageThatNamesTheirEncoding() throws Exception {
    String text = job("wide");
    record Encoded(String name, Charset charset, byte[] bom, String encoding) {}
    List<Encoded> cases = new ArrayList<>();
    for (boolean bom : new boolean[] {true, false}) {
      String suffix = bom ? "-bom.yaml" : ".yaml";
      cases.add(new Encoded("utf16le" + suffix, StandardCharsets.UTF_16LE, bom ? new byte[] {-1, -2} : new byte[0],
          "UTF-16"));
      cases.add(new Encoded("utf16be" + suffix, StandardCharsets.UTF_16BE, bom ? new byte[] {-2, -1} : new byte[0],
          "UTF-16"));
      cases.add(new Encoded("utf32le" + suffix, Charset.forName("UTF-32LE"),
          bom ? new byte[] {-1, -2, 0, 0} : new byte[0], "UTF-32"));
      cases.add(new Encoded("utf32be" + suffix, Charset.forName("UTF-32BE"),
          bom ? new byte[] {0, 0, -2, -1} : new byte[0], "UTF-32"));
    }
    for (Encoded e : cases) {
      byte[] body = text.getBytes(e.charset());
      byte[] bytes = new byte[e.bom().length + body.length];
      System.arraycopy(e.bom(), 0, bytes, 0, e.bom().length);
      System.arraycopy(body, 0, bytes, e.bom().length, body.length);
      write("wide/" + e.name(), bytes);
    }

    ChildJvm r = sane(hooklens("lint", "-f", "json", dir.resolve("wide").toString()));
    for (Encoded e : cases) {
      List<JsonNode> found = findings(r, "/" + e.name());
      // Reading the file is as good as naming its encoding: then its real finding is there.
      boolean read = found.stream().anyMatch(f -> f.get("rule").asText().equals("HL201") && line(f) == 6);
      boolean named = found.stream().map(f -> f.get("message").asText())
          .anyMatch(m -> m.contains(e.encoding()) && m.contains("UTF-8"));
      assertTrue(read || named, e.name() + ": " + found + "\n" + cut(r.err()));
    }
  }

  @Test
  void aSymbolicLinkToAManifestInAFolderIsLinted() throws Exception {
    Path target = write("elsewhere/pod.yaml", job("linked"));
    Path folder = Files.createDirectories(dir.resolve("only-link"));
    Files.createSymbolicLink(folder.resolve("pod.yaml"), target);

    ChildJvm r = sane(hooklens("lint", "-f", "json", folder.toString()));
    assertEquals(ExitCodes.FINDINGS, r.exit(), r.err());
    assertEquals(6, line(only(findings(r, "pod.yaml"), "HL201", "the linked manifest")));
  }

  @Test
  void aSymbolicLinkLoopIsNamedAsOne() throws Exception {
    Path loop = dir.resolve("loop.yaml");
    Files.createSymbolicLink(loop, loop.getFileName());

    ChildJvm r = sane(hooklens("lint", loop.toString()));
    assertEquals(ExitCodes.USAGE, r.exit(), r.err());
    assertTrue(r.err().contains("loop.yaml"), r.err());
    assertFalse(r.err().contains("no such file"), "a loop is not a missing file: " + r.err());
    assertTrue(r.err().contains("link"), "says it is a link loop: " + r.err());
  }

  @Test
  void aDirectoryLinkLoopEndsAndEachManifestIsLintedOnce() throws Exception {
    write("tree/app/job.yaml", job("once"));
    Files.createSymbolicLink(dir.resolve("tree/app/back"), Path.of(".."));

    ChildJvm r = sane(hooklens("lint", "-f", "json", dir.resolve("tree").toString()));
    assertEquals(6, line(only(findings(r, "job.yaml"), "HL201", "the manifest, once")));
  }

  @Test
  void aFifoIsRefusedNotWaitedOn() throws Exception {
    Path fifo = dir.resolve("pipe.yaml");
    mkfifo(fifo);

    ChildJvm r = sane(hooklens("lint", fifo.toString()));
    assertEquals(ExitCodes.USAGE, r.exit(), r.err());
    assertTrue(r.err().contains("pipe.yaml"), r.err());

    write("walked/job.yaml", job("beside-a-fifo"));
    mkfifo(dir.resolve("walked/pipe.yaml"));
    ChildJvm walked = sane(hooklens("lint", "-f", "json", dir.resolve("walked").toString()));
    assertEquals(6, line(only(findings(walked, "job.yaml"), "HL201", "the manifest beside the FIFO")));
  }

  private static void mkfifo(Path path) throws IOException, InterruptedException {
    Process p = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
    assertEquals(0, p.waitFor(), "mkfifo " + path);
  }

  /** What issue 14 found handled well, kept so: each refused or reported with its place, nothing more. */
  @Test
  void inputThatWasAlreadyHandledStaysHandled() throws Exception {
    StringBuilder bomb = new StringBuilder("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for (int i = 1; i < 10; i++) {
      bomb.append("a").append(i).append(": &a").append(i).append(" [")
          .append(String.join(", ", Collections.nCopies(10, "*a" + (i - 1)))).append("]\n");
    }
    write("old/alias-bomb.yaml", bomb.toString());
    write("old/deep.yaml", "a: " + "[".repeat(100_000) + "\n");
    byte[] junk = new byte[64 * 1024];
    new Random(14).nextBytes(junk);
    write("old/junk.yaml", junk);
    byte[] utf8 = job("bad-utf8").getBytes(StandardCharsets.UTF_8);
    utf8[utf8.length - 3] = (byte) 0xC3;
    utf8[utf8.length - 2] = (byte) 0x28;
    write("old/invalid-utf8.yaml", utf8);
    write("old/nul.yaml", job("nul").replace("Never", "Nev\0er"));
    write("old/duplicate.yaml", job("dup").replace("kind: Job\n", "kind: Job\nkind: Job\n"));

    ChildJvm r = sane(hooklens(junk.length, "lint", "-f", "json", dir.resolve("old").toString()));
    assertEquals(ExitCodes.FINDINGS, r.exit(), r.err());
    assertTrue(line(only(findings(r, "alias-bomb.yaml"), "HL002", "alias bomb")) > 1, "the alias that expands");
    assertEquals(1, line(only(findings(r, "deep.yaml"), "HL002", "deep nesting")), "where nesting gets too deep");
    assertTrue(only(findings(r, "junk.yaml"), "HL002", "binary").get("message").asText().contains("binary"));
    assertTrue(only(findings(r, "invalid-utf8.yaml"), "HL002", "invalid UTF-8").get("message").asText()
        .contains("UTF-8"));
    assertTrue(only(findings(r, "nul.yaml"), "HL002", "NUL").get("message").asText().contains("offset"));
    assertEquals(3, line(only(findings(r, "duplicate.yaml"), "HL003", "duplicate key")));
    try (Stream<Path> files = Files.list(dir.resolve("old"))) {
      assertEquals(6, files.count(), "nothing written beside the input");
    }
  }
}
