package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hooklens.TestPaths;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `hooklens hooks`: Helm's hook order for a chart (rendered with Helm) or a rendered manifest file. */
class HooksCommandTest {
  @TempDir
  Path dir;

  private Path chart(String name) throws Exception {
    return TestPaths.chartCopy(name, dir);
  }

  /** The output with the chart's path written as its name, as a user in its parent directory would see it. */
  private static String relative(CliRun r, Path chart) {
    return r.out().replace(chart.toString(), chart.getFileName().toString());
  }

  @Test
  void aChartWithoutItsDependenciesIsPlannedFromItsOwnTemplatesWithANote() throws Exception {
    Path chart = chart("unvendored");
    CliRun r = CliRun.of("hooks", chart.toString());
    assertEquals(0, r.exit(), r.err());
    assertTrue(relative(r, chart).contains("unvendored/templates/migrate-job.yaml:8"), r.out());
    String hint = " (not in charts/; run helm dependency build, or give --dependency-update)\n";
    assertEquals("hooklens: " + chart + "/Chart.yaml:5: rendered without dependency common" + hint + "hooklens: "
        + chart + "/Chart.yaml:8: rendered without dependency postgresql" + hint, r.err());
  }

  @Test
  void aChartHelmRefusesIsPlannedFromItsTemplatesSayingWhatItCouldNotPlace() throws Exception {
    Path chart = chart("refused-hooks");
    CliRun r = CliRun.of("hooks", chart.toString());
    assertEquals(0, r.exit(), r.err());
    assertEquals("""
        pre-install
          #  HOOK               WEIGHT  DELETE POLICY                   WAITS  SOURCE
          1  Job/{{…}}-migrate       5  before-hook-creation (default)  yes    refused-hooks/templates/migrate-job.yaml:6

        pre-upgrade
          #  HOOK               WEIGHT  DELETE POLICY                   WAITS  SOURCE
          1  Job/{{…}}-migrate       5  before-hook-creation (default)  yes    refused-hooks/templates/migrate-job.yaml:6
        """, relative(r, chart));
    assertEquals("hooklens: Helm cannot render " + chart + ": parse error at (refused-hooks/templates/configmap.yaml:4):"
        + " unexpected \"}\" in operand; the hooks are read from its templates with their actions masked, so the"
        + " values, conditions and includes of the templates are not applied\nhooklens: " + chart
        + "/templates/seed-job.yaml:6: a Job whose helm.sh/hook a template action writes is not placed\n", r.err());
  }

  @Test
  void theChartsHooksInHelmsOrderEventByEvent() throws Exception {
    Path plan = chart("plan");
    CliRun r = CliRun.of("hooks", plan.toString());
    assertEquals(0, r.exit(), r.err());
    assertEquals("""
        pre-install
          #  HOOK                       WEIGHT  DELETE POLICY                   WAITS  SOURCE
          1  ServiceAccount/release-sa     -10  before-hook-creation (default)  no     plan/templates/migrate.yaml:6
          2  Job/release-migrate             0  hook-succeeded,hook-failed      yes    plan/templates/migrate.yaml:16
          3  ConfigMap/release-seed          0  before-hook-creation (default)  no     plan/templates/seed.yaml:6

        post-install
          #  HOOK               WEIGHT  DELETE POLICY                   WAITS  SOURCE
          1  Job/release-audit       5  before-hook-creation (default)  yes    plan/charts/audit/templates/record.yaml:6

        post-delete
          #  HOOK                 WEIGHT  DELETE POLICY  WAITS  SOURCE
          1  Job/release-cleanup       0  hook-failed    yes    plan/templates/cleanup.yaml:7

        pre-upgrade
          #  HOOK                       WEIGHT  DELETE POLICY                   WAITS  SOURCE
          1  ServiceAccount/release-sa     -10  before-hook-creation (default)  no     plan/templates/migrate.yaml:6
          2  Job/release-migrate             0  hook-succeeded,hook-failed      yes    plan/templates/migrate.yaml:16

        post-upgrade
          #  HOOK               WEIGHT  DELETE POLICY                   WAITS  SOURCE
          1  Job/release-audit       5  before-hook-creation (default)  yes    plan/charts/audit/templates/record.yaml:6

        test
          #  HOOK               WEIGHT  DELETE POLICY   WAITS  SOURCE
          1  Pod/release-smoke       0  hook-succeeded  yes    plan/templates/smoke.yaml:6
        """, relative(r, plan));
    assertEquals("", r.err());
  }

  @Test
  void aWeightTieIsBrokenByNameNotByKind() throws Exception {
    Path plan = chart("plan");
    CliRun r = CliRun.of("hooks", "--event", "pre-install", "--format", "json", plan.resolve("Chart.yaml").toString());
    assertEquals(0, r.exit(), r.err());
    JsonNode hooks = new ObjectMapper().readTree(r.out()).at("/events/0/hooks");
    List<String> order = new ArrayList<>();
    hooks.forEach(h -> order.add(h.get("kind").asText() + "/" + h.get("name").asText() + "@" + h.get("weight")));
    // Helm's install order puts ConfigMap before Job; Helm's hook sort puts release-migrate before release-seed.
    assertEquals(List.of("ServiceAccount/release-sa@-10", "Job/release-migrate@0", "ConfigMap/release-seed@0"), order);
  }

  @Test
  void jsonHasAStableDocumentedShape() throws Exception {
    Path plan = chart("plan");
    CliRun r = CliRun.of("hooks", "-f", "json", plan.toString());
    JsonNode root = new ObjectMapper().readTree(r.out());
    assertEquals(1, root.get("version").asInt());
    assertEquals("hooklens", root.at("/tool/name").asText());
    assertEquals(plan.toString(), root.get("source").asText());
    List<String> events = new ArrayList<>();
    root.get("events").forEach(e -> events.add(e.get("event").asText()));
    assertEquals(List.of("pre-install", "post-install", "pre-delete", "post-delete", "pre-upgrade", "post-upgrade",
        "pre-rollback", "post-rollback", "test"), events, "every event, with hooks or not");
    assertEquals(0, root.at("/events/2/hooks").size(), "no pre-delete hooks");
    JsonNode job = root.at("/events/0/hooks/1");
    assertEquals(2, job.get("position").asInt());
    assertEquals("Job", job.get("kind").asText());
    assertEquals("release-migrate", job.get("name").asText());
    assertEquals(0, job.get("weight").asLong());
    assertEquals("[\"hook-succeeded\",\"hook-failed\"]", job.get("deletePolicies").toString());
    assertEquals(false, job.get("defaultDeletePolicy").asBoolean());
    assertEquals(true, job.get("waits").asBoolean());
    assertEquals(plan.resolve("templates/migrate.yaml").toString(), job.at("/source/file").asText());
    assertEquals(16, job.at("/source/line").asInt());
    assertEquals(21, job.at("/source/column").asInt(), "the helm.sh/hook value");
    JsonNode account = root.at("/events/0/hooks/0");
    assertEquals(true, account.get("defaultDeletePolicy").asBoolean());
    assertEquals("[\"before-hook-creation\"]", account.get("deletePolicies").toString());
    assertEquals(false, account.get("waits").asBoolean());
  }

  @Test
  void valuesAndSetChangeWhatIsRendered() throws Exception {
    Path plan = chart("plan");
    CliRun off = CliRun.of("hooks", "--event", "post-delete", "--set", "cleanup.enabled=false", plan.toString());
    assertEquals(0, off.exit(), off.err());
    assertEquals("No post-delete hooks.\n", off.out());
    // Text is true in a template's if, whatever it says; an empty file's content is empty text.
    assertTrue(CliRun.of("hooks", "--event", "post-delete", "--set-string", "cleanup.enabled=false", plan.toString())
        .out().contains("Job/release-cleanup"));
    Path empty = Files.writeString(dir.resolve("empty.txt"), "");
    assertEquals("No post-delete hooks.\n", CliRun.of("hooks", "--event", "post-delete", "--set-file",
        "cleanup.enabled=" + empty, plan.toString()).out());
    Path keep = Files.writeString(dir.resolve("keep.yaml"), "cleanup:\n  enabled: false\n");
    Path again = Files.writeString(dir.resolve("again.yaml"), "cleanup:\n  enabled: true\n");
    assertEquals("No post-delete hooks.\n", CliRun.of("hooks", "--event", "post-delete", "--values", keep.toString(),
        plan.toString()).out());
    assertTrue(CliRun.of("hooks", "--event", "post-delete", "--values", keep.toString(), "--values",
        again.toString(), plan.toString()).out().contains("Job/release-cleanup"), "a later values file wins");
  }

  @Test
  void theChartsConfigurationSetsValuesAsLintDoesAndASetFlagWins() throws Exception {
    Path plan = chart("plan");
    Files.writeString(plan.resolve(".hooklens.yaml"), "helm:\n  set: {cleanup.enabled: false}\n");
    CliRun configured = CliRun.of("hooks", "--event", "post-delete", plan.toString());
    assertEquals(0, configured.exit(), configured.err());
    assertEquals("No post-delete hooks.\n", configured.out());
    assertTrue(CliRun.of("hooks", "--event", "post-delete", "--set", "cleanup.enabled=true", plan.toString()).out()
        .contains("Job/release-cleanup"), "a --set flag wins over the configuration");
  }

  /** The text plan of a rendered manifest, with the file's path written as rendered.yaml. */
  private String plan(String manifest) throws Exception {
    Path file = Files.writeString(dir.resolve("rendered.yaml"), manifest, StandardCharsets.UTF_8);
    CliRun r = CliRun.of("hooks", file.toString());
    assertEquals(0, r.exit(), r.err());
    return r.out().replace(file.toString(), "rendered.yaml");
  }

  @Test
  void aRenderedManifestFileIsPlannedWithItsOwnLines() throws Exception {
    String plan = plan("""
        ---
        # Source: app/templates/hooks.yaml
        apiVersion: v1
        kind: Secret
        metadata:
          name: b-secret
          annotations:
            helm.sh/hook: pre-upgrade,pre-upgrade
            helm.sh/hook-weight: " 1"
        ---
        apiVersion: batch/v1
        kind: Job
        metadata:
          name: a-job
          annotations:
            helm.sh/hook: Pre-Upgrade
            helm.sh/hook-delete-policy: hook-succeeded,bogus
        ---
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: skipped
          annotations:
            helm.sh/hook: pre-upgrad
        """);
    // " 1" is no integer for Helm, so the Secret has weight 0 and ties with the Job, which wins by name; an event
    // listed twice runs the hook twice; the misspelt event makes Helm skip the ConfigMap.
    assertEquals("""
        pre-upgrade
          #  HOOK             WEIGHT  DELETE POLICY                   WAITS  SOURCE
          1  Job/a-job             0  hook-succeeded                  yes    rendered.yaml:16
          2  Secret/b-secret       0  before-hook-creation (default)  no     rendered.yaml:8
          3  Secret/b-secret       0  before-hook-creation (default)  no     rendered.yaml:8
        """, plan);
  }

  @Test
  void namesFromTheManifestCannotRewriteTheTerminalAndTheColumnsStayAligned() throws Exception {
    String plan = plan("""
        apiVersion: batch/v1
        kind: Job
        metadata:
          name: "a\\e[2J\\u202e"
          annotations:
            helm.sh/hook: pre-install
        """);
    assertEquals("""
        pre-install
          #  HOOK                WEIGHT  DELETE POLICY                   WAITS  SOURCE
          1  Job/a\\x1b[2J\\u202e       0  before-hook-creation (default)  yes    rendered.yaml:6
        """, plan);
  }

  @Test
  void usageAndInputErrorsExitTwo() throws Exception {
    Path plan = chart("plan");
    CliRun missing = CliRun.of("hooks", dir.resolve("nope").toString());
    assertEquals(2, missing.exit());
    assertTrue(missing.err().contains("no such file or directory"), missing.err());

    CliRun noChart = CliRun.of("hooks", dir.toString());
    assertEquals(2, noChart.exit());
    assertTrue(noChart.err().contains("a directory without Chart.yaml is no chart"), noChart.err());

    CliRun badEvent = CliRun.of("hooks", "--event", "pre-instal", plan.toString());
    assertEquals(2, badEvent.exit());
    assertTrue(badEvent.err().contains("Invalid value for option '--event'"), badEvent.err());

    Path file = Files.writeString(dir.resolve("rendered.yaml"), "kind: ConfigMap\nmetadata: [\n");
    CliRun syntax = CliRun.of("hooks", file.toString());
    assertEquals(2, syntax.exit());
    assertTrue(syntax.err().contains(file + ":"), syntax.err());
    CliRun setOnFile = CliRun.of("hooks", "--set", "a=b", file.toString());
    assertEquals(2, setOnFile.exit());
    assertTrue(setOnFile.err().contains("--values, --set, --release-name, --namespace and --dependency-update apply to charts only"), setOnFile.err());

    CliRun badSet = CliRun.of("hooks", "--set", "cleanup.enabled=false,x", plan.toString());
    assertEquals(2, badSet.exit());
    assertEquals("hooklens: --set cleanup.enabled=false,x: key \"x\" has no value\n", badSet.err());

    CliRun noValues = CliRun.of("hooks", "--values", dir.resolve("nope.yaml").toString(), plan.toString());
    assertEquals(2, noValues.exit());
    assertTrue(noValues.err().contains("--values " + dir.resolve("nope.yaml") + ": no such file"), noValues.err());

    // A chart Helm refuses is planned from its templates, with Helm's message as a note.
    CliRun broken = CliRun.of("hooks", chart("broken").toString());
    assertEquals(0, broken.exit(), broken.err());
    assertTrue(broken.err().contains("Helm cannot render " + dir.resolve("broken") + ": parse error at "
        + "(broken-shop/templates/configmap.yaml:4)"), broken.err());
  }
}
