package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hooklens.TestPaths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code lint --write-baseline}, {@code --baseline}, {@code baseline:} and {@code --baseline-report}. */
class BaselineCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Two Pods whose preStop outlasts the grace period (HL401), and one with nothing wrong. */
  private static final String WEB = LintCommandTest.OVER_BUDGET;
  private static final String WORKER = WEB.replace("name: web", "name: worker");
  private static final String CONFIG = LintCommandTest.CLEAN.replace("name: web", "name: settings");

  @TempDir
  Path dir;

  /** HL401 alone judges these manifests, so that what other rules think of them changes no count here. */
  @BeforeEach
  void onlyTheBudgetRule() throws Exception {
    Files.writeString(dir.resolve(".hooklens.yaml"),
        "rules:\n  HL1xx: off\n  HL2xx: off\n  HL3xx: off\n  HL402: off\n");
  }

  private Path k8s(String... documents) throws Exception {
    Path f = dir.resolve("k8s/app.yaml");
    Files.createDirectories(f.getParent());
    Files.writeString(f, String.join("---\n", documents));
    return f;
  }

  private Path writeBaseline() throws Exception {
    Path manifest = k8s(WEB, CONFIG, WORKER);
    Path baseline = dir.resolve(".hooklens-baseline.json");
    CliRun r = CliRun.of("lint", "--write-baseline", baseline.toString(), manifest.toString());
    assertEquals(0, r.exit(), r.out() + r.err());
    assertEquals("hooklens: wrote 2 findings to the baseline " + baseline + "\n", r.err());
    assertEquals("No problems in 1 file (2 in the baseline).\n", r.out());
    return baseline;
  }

  private CliRun lint(Path baseline, String... more) {
    List<String> args = new ArrayList<>(List.of("lint", "--baseline", baseline.toString()));
    args.addAll(List.of(more));
    args.add(dir.resolve("k8s").toString());
    return CliRun.of(args.toArray(String[]::new));
  }

  @Test
  void theBaselineRecordsEachFindingByResourceAndKeyPathRelativeToItsFolder() throws Exception {
    JsonNode b = JSON.readTree(writeBaseline().toFile());
    assertEquals(1, b.get("version").asInt());
    JsonNode first = b.get("findings").get(0);
    assertEquals("k8s/app.yaml", first.get("file").asText());
    assertEquals("HL401", first.get("rule").asText());
    assertEquals("Pod", first.get("kind").asText());
    assertEquals("web", first.get("name").asText());
    assertEquals("spec.containers[name=app].lifecycle.preStop", first.get("path").asText());
    assertEquals(1, first.get("count").asInt());
    assertEquals("worker", b.get("findings").get(1).get("name").asText());
    assertFalse(Files.readString(dir.resolve(".hooklens-baseline.json")).contains(dir.toString()),
        "no absolute path");
  }

  @Test
  void linesInsertedAboveAndAnUnrelatedResourceRenamedKeepFindingsBaselined() throws Exception {
    Path baseline = writeBaseline();
    k8s("# moved down by a comment\n# and another\n" + CONFIG.replace("settings", "app-settings"), WEB, WORKER);
    CliRun r = lint(baseline);
    assertEquals(0, r.exit(), r.out() + r.err());
    assertEquals("No problems in 1 file (2 in the baseline).\n", r.out());
    assertEquals("", r.err());
  }

  @Test
  void aFixedFindingIsAStaleEntryThatTheReportListsWithoutFailing() throws Exception {
    Path baseline = writeBaseline();
    k8s(WEB, CONFIG, WORKER.replace("sleep 20", "sleep 1"));
    CliRun r = lint(baseline, "--baseline-report");
    assertEquals(0, r.exit(), r.out() + r.err());
    assertEquals("No problems in 1 file (1 in the baseline).\n", r.out());
    assertEquals(List.of("hooklens: stale baseline entry in " + baseline + ": k8s/app.yaml HL401 Pod/worker at "
            + "spec.containers[name=app].lifecycle.preStop is no longer found",
        "hooklens: 1 stale baseline entry; write the baseline again with --write-baseline to drop them"),
        r.err().lines().toList());
  }

  @Test
  void aNewFindingIsReportedAndFailsTheRunWhileTheBaselinedOnesStayQuiet() throws Exception {
    Path baseline = writeBaseline();
    String sidecar = WEB.replace("    - name: app\n", """
            - name: proxy
              image: envoy
              lifecycle:
                preStop:
                  exec:
                    command: ["sleep", "30"]
            - name: app
        """);
    k8s(sidecar, CONFIG, WORKER);
    CliRun r = lint(baseline, "--format", "json");
    assertEquals(1, r.exit(), r.out() + r.err());
    JsonNode report = JSON.readTree(r.out());
    assertEquals(1, report.get("findings").size(), r.out());
    assertTrue(report.get("findings").get(0).get("message").asText().contains("\"proxy\""), r.out());
    assertEquals(2, report.get("summary").get("baselined").asInt());

    JsonNode sarif = JSON.readTree(lint(baseline, "--format", "sarif").out()).get("runs").get(0);
    assertEquals(1, sarif.get("results").size());
    assertEquals("new", sarif.get("results").get(0).get("baselineState").asText());
    assertEquals(2, sarif.get("properties").get("baselined").asInt());
  }

  @Test
  void aSecondOccurrenceOfABaselinedFindingIsNew() throws Exception {
    Path manifest = k8s(WEB);
    Path baseline = dir.resolve("b.json");
    assertEquals(0, CliRun.of("lint", "--write-baseline", baseline.toString(), manifest.toString()).exit());
    // The same Pod twice: the same finding at the same key path, once more than the baseline records.
    k8s(WEB, WEB);
    CliRun r = lint(baseline);
    assertEquals(1, r.exit(), r.out() + r.err());
    assertEquals(1, r.out().lines().filter(l -> l.contains(" HL401 ")).count(), r.out());
    assertTrue(r.out().contains("(1 in the baseline)"), r.out());
  }

  @Test
  void aBaselineWrittenInOneCheckoutWorksInACopyElsewhere(@TempDir Path copy) throws Exception {
    writeBaseline();
    TestPaths.copyTree(dir, copy);
    CliRun r = CliRun.of("lint", "--baseline", copy.resolve(".hooklens-baseline.json").toString(),
        copy.resolve("k8s").toString());
    assertEquals(0, r.exit(), r.out() + r.err());
    assertEquals("No problems in 1 file (2 in the baseline).\n", r.out());
  }

  @Test
  void theConfigurationNamesABaselineRelativeToItself() throws Exception {
    Path baseline = writeBaseline();
    Files.createDirectories(dir.resolve("ci"));
    Files.move(baseline, dir.resolve("ci/accepted.json"));
    // Paths in the baseline are relative to its own folder, which moved one level down.
    Files.writeString(dir.resolve("ci/accepted.json"),
        Files.readString(dir.resolve("ci/accepted.json")).replace("\"k8s/", "\"../k8s/"));
    Files.writeString(dir.resolve(".hooklens.yaml"), "baseline: ci/accepted.json\n", StandardOpenOption.APPEND);
    CliRun r = CliRun.of("lint", dir.resolve("k8s").toString());
    assertEquals(0, r.exit(), r.out() + r.err());
    assertEquals("No problems in 1 file (2 in the baseline).\n", r.out());

    Files.writeString(dir.resolve(".hooklens.yaml"), Files.readString(dir.resolve(".hooklens.yaml"))
        .replace("accepted", "missing"));
    r = CliRun.of("lint", dir.resolve("k8s").toString());
    assertEquals(2, r.exit(), r.out() + r.err());
    assertEquals(List.of("hooklens: cannot read baseline " + dir.resolve("ci/missing.json")
        + ": no such file or directory"), r.err().lines().toList());
  }

  @Test
  void aCorruptOrMissingBaselineIsOneLineAndExitTwo() throws Exception {
    Path baseline = writeBaseline();
    Files.writeString(baseline, "{\"version\": 1, \"findings\": [\n  {\"file\": \"k8s/app.yaml\",\n");
    CliRun r = lint(baseline);
    assertEquals(2, r.exit(), r.out() + r.err());
    assertEquals("", r.out());
    List<String> lines = r.err().lines().toList();
    assertEquals(1, lines.size(), r.err());
    assertTrue(lines.get(0).startsWith("hooklens: invalid baseline " + baseline + ": 3:"), r.err());
    assertFalse(r.err().contains("Exception"), r.err());

    Files.writeString(baseline, "{\"version\": 2, \"findings\": []}");
    r = lint(baseline);
    assertEquals(2, r.exit());
    assertTrue(r.err().startsWith("hooklens: invalid baseline " + baseline + ": \"version\" must be 1"), r.err());

    r = lint(dir.resolve("none.json"));
    assertEquals(2, r.exit());
    assertEquals("hooklens: cannot read baseline " + dir.resolve("none.json") + ": no such file or directory\n",
        r.err());
  }
}
