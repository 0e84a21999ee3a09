package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hooklens.TestPaths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `hooklens run --event` and `--rollout` in-process, on the embedded cluster with real processes: Helm's order,
 * waits and delete policies, a chart rendered by real Helm, and a DeploymentConfig's failure policies.
 */
@Tag("slow")
class RunSequenceCommandTest {
  @TempDir
  Path dir;

  private static String manifest(String name) {
    return TestPaths.repoRoot().resolve("language-server/src/test/resources/run").resolve(name).toString();
  }

  private static JsonNode json(CliRun r) throws Exception {
    return new ObjectMapper().readTree(r.out());
  }

  private static List<String> texts(JsonNode array, String field) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.path(field).asText()));
    return out;
  }

  private static JsonNode item(JsonNode sequence, String what) {
    for (JsonNode item : sequence.get("items")) {
      if (item.get("what").asText().equals(what)) {
        return item;
      }
    }
    throw new AssertionError("no " + what + " in " + sequence);
  }

  /** A chart with one template. */
  private Path chart(String name, String values, String templateName, String template) throws Exception {
    Path chart = dir.resolve(name);
    Files.createDirectories(chart.resolve("templates"));
    Files.writeString(chart.resolve("Chart.yaml"), "apiVersion: v2\nname: " + name + "\nversion: 1.0.0\n");
    Files.writeString(chart.resolve("values.yaml"), values);
    Files.writeString(chart.resolve("templates").resolve(templateName), template);
    return chart;
  }

  @Test
  void anInstallStopsAtAJobThatWaitsForTheConfigMapItsEqualWeightNeighbourCreatesAsHl221Predicts()
      throws Exception {
    CliRun r = CliRun.of("run", "--yes", "--format", "json", "--event", "install", "--timeout", "3",
        manifest("helm-install.yaml"));
    assertEquals(1, r.exit(), r.err() + r.out());
    JsonNode report = json(r);
    assertFalse(report.get("succeeded").asBoolean());
    assertEquals(0, report.get("steps").size());
    JsonNode sequence = report.get("sequences").get(0);
    assertEquals("helm", sequence.get("kind").asText());
    assertEquals("install", sequence.get("name").asText());
    assertEquals("timed out waiting for the condition", sequence.get("error").asText());
    // Helm stops at the failure: the ConfigMap, the release and post-install never come.
    assertEquals(List.of("Job/db-migrate", "Job/check-settings"), texts(sequence.get("items"), "what"));
    JsonNode check = item(sequence, "Job/check-settings");
    assertEquals("timed-out", check.get("outcome").asText());
    assertEquals("CreateContainerConfigError", check.at("/pods/0/containers/0/reason").asText(), check.toString());
    assertEquals("configmap \"settings\" not found", check.at("/pods/0/containers/0/message").asText());
    // The hooks before a failure that have hook-succeeded are deleted after it.
    JsonNode migrate = item(sequence, "Job/db-migrate");
    assertEquals("hook-succeeded", migrate.get("deletedBy").asText());
    assertTrue(migrate.get("deletedMs").asLong() >= check.get("endMs").asLong(), sequence.toString());
    JsonNode verdict = sequence.get("verdicts").get(1);
    assertFalse(verdict.get("ok").asBoolean());
    assertEquals("HL221", verdict.at("/rules/0").asText(), verdict.toString());
    assertTrue(r.err().contains("pre-install: Job/db-migrate (weight -1)"), r.err());
  }

  @Test
  void withTheConfigMapWeightedFirstTheInstallRunsByWeightThenTheReleaseThenPostInstall() throws Exception {
    Path fixed = dir.resolve("fixed.yaml");
    Files.writeString(fixed, Files.readString(Path.of(manifest("helm-install.yaml"))).replace("""
          name: settings
          annotations:
            helm.sh/hook: pre-install
        """, """
          name: settings
          annotations:
            helm.sh/hook: pre-install
            helm.sh/hook-weight: "-2"
        """));
    CliRun r = CliRun.of("run", "--yes", "--format", "json", "--event", "install", fixed.toString());
    assertEquals(0, r.exit(), r.err() + r.out());
    JsonNode sequence = json(r).get("sequences").get(0);
    assertTrue(sequence.get("error").isNull(), sequence.toString());
    assertEquals(List.of("ConfigMap/settings", "Job/db-migrate", "Job/check-settings", "create ConfigMap/web",
        "Pod/notify"), texts(sequence.get("items"), "what"));
    assertEquals(List.of("pre-install", "pre-install", "pre-install", "release", "post-install"),
        texts(sequence.get("items"), "group"));
    // Each hook is created only after the one before it ended.
    long previousEnd = -1;
    for (JsonNode item : sequence.get("items")) {
      assertTrue(item.get("startMs").asLong() >= previousEnd, sequence.toString());
      previousEnd = item.get("endMs").asLong();
    }
    assertEquals("checked level debug", item(sequence, "Job/check-settings").at("/pods/0/containers/0/output")
        .asText().strip());
    JsonNode migrate = item(sequence, "Job/db-migrate");
    assertEquals("migrated to v2", migrate.at("/pods/0/containers/0/output").asText().strip());
    // hook-succeeded deletes once the whole event succeeded, after the last pre-install hook.
    assertTrue(migrate.get("deletedMs").asLong() >= item(sequence, "Job/check-settings").get("endMs").asLong());
    JsonNode settings = item(sequence, "ConfigMap/settings");
    assertTrue(settings.get("pods").isEmpty());
    assertNull(settings.get("deletedBy").textValue(), "the default before-hook-creation deletes nothing afterwards");
    assertEquals(List.of("true", "true", "true", "true"), texts(sequence.get("verdicts"), "ok"));
    assertEquals("hook-succeeded", item(sequence, "Pod/notify").get("deletedBy").asText());
  }

  @Test
  void aTestPodThatNeverCompletesTimesOutAsHl216PredictsAndTheExitCodeSaysSo() throws Exception {
    CliRun r = CliRun.of("run", "--yes", "--format", "json", "--event", "test", "--timeout", "2",
        manifest("helm-install.yaml"));
    assertEquals(1, r.exit(), r.err());
    JsonNode sequence = json(r).get("sequences").get(0);
    assertEquals("timed out waiting for the condition", sequence.get("error").asText());
    JsonNode smoke = item(sequence, "Pod/smoke-test");
    assertEquals("timed-out", smoke.get("outcome").asText());
    assertTrue(smoke.get("endMs").asLong() - smoke.get("startMs").asLong() >= 2000, smoke.toString());
    JsonNode verdict = sequence.get("verdicts").get(0);
    assertFalse(verdict.get("ok").asBoolean());
    assertEquals("HL216", verdict.at("/rules/0").asText(), verdict.toString());
  }

  @Test
  void aChartIsRenderedWithItsValuesAndFindingsPointIntoItsTemplates() throws Exception {
    Path chart = chart("shop", "message: from values\n", "job.yaml", """
        apiVersion: batch/v1
        kind: Job
        metadata:
          name: {{ .Release.Name }}-migrate
          annotations:
            "helm.sh/hook": pre-install
            "helm.sh/hook-weight": "0"
            "helm.sh/hook-delete-policy": hook-failed
        spec:
          backoffLimit: 0
          template:
            spec:
              restartPolicy: Never
              containers:
                - name: migrate
                  image: debian:12
                  command: [sh, -c, 'echo {{ .Values.message }}; exit 3']
        """);
    CliRun bad = CliRun.of("run", "--yes", "--event", "pre-install", "--set", "message[0", chart.toString());
    assertEquals(2, bad.exit());
    assertEquals("hooklens: --set message[0: error parsing index: \"[0\" has no ]\n", bad.err());
    CliRun r = CliRun.of("run", "--yes", "--format", "json", "--event", "pre-install", "--set", "message=from set",
        chart.toString());
    assertEquals(1, r.exit(), r.err());
    JsonNode sequence = json(r).get("sequences").get(0);
    JsonNode job = sequence.get("items").get(0);
    assertEquals("failed", job.get("outcome").asText());
    assertEquals("from set", job.at("/pods/0/containers/0/output").asText().strip());
    assertEquals(3, job.at("/pods/0/containers/0/exitCode").asInt());
    assertEquals("hook-failed", job.get("deletedBy").asText());
    JsonNode predicted = job.get("predicted").get(0);
    assertEquals("HL209", predicted.get("rule").asText(), job.toString());
    assertTrue(predicted.get("file").asText().endsWith("templates/job.yaml"), predicted.toString());
    assertEquals(8, predicted.get("line").asInt(), predicted.toString());
    assertTrue(r.err().contains("container \"migrate\" runs: sh -c 'echo from set; exit 3'"), r.err());
  }

  @Test
  void aChartsContainerHooksRunFromItsRenderedManifestsWithFindingsInItsTemplates() throws Exception {
    Path chart = chart("web", "drainSeconds: 1\n", "pod.yaml", """
        apiVersion: v1
        kind: Pod
        metadata:
          name: {{ .Release.Name }}-web
        spec:
          terminationGracePeriodSeconds: 1
          containers:
            - name: app
              image: debian:12
              command: [sh, -c, 'trap "exit 0" TERM; while true; do sleep 0.1; done']
              lifecycle:
                preStop:
                  exec:
                    command: [sh, -c, 'echo draining; sleep {{ .Values.drainSeconds }}']
        """);
    CliRun r = CliRun.of("run", "--yes", "--format", "json", "--set", "drainSeconds=2", chart.toString());
    assertEquals(1, r.exit(), r.err());
    assertTrue(r.err().contains("Pod/release-web (" + chart.resolve("templates/pod.yaml") + ":1) as pod"),
        r.err());
    JsonNode hook = json(r).at("/steps/0/hooks/0");
    assertEquals("cut-off", hook.get("status").asText(), hook.toString());
    JsonNode predicted = hook.get("predicted").get(0);
    assertEquals("HL401", predicted.get("rule").asText(), hook.toString());
    assertTrue(predicted.get("file").asText().endsWith("templates/pod.yaml"), predicted.toString());
    assertEquals(12, predicted.get("line").asInt(), predicted.toString());
  }

  @Test
  void aRolloutRunsPreMidAndPostWithTheirFailurePolicies() throws Exception {
    CliRun r = CliRun.of("run", "--yes", "--format", "json", "--rollout", "--resource", "DeploymentConfig/shop",
        manifest("rollout.yaml"));
    assertEquals(1, r.exit(), r.err());
    JsonNode sequence = json(r).get("sequences").get(0);
    assertEquals("rollout", sequence.get("kind").asText());
    assertEquals("DeploymentConfig/shop", sequence.get("name").asText());
    assertEquals(List.of("pre", "mid", "deployer", "post", "deployer"), texts(sequence.get("items"), "group"));
    assertEquals(List.of("succeeded", "ignored", "recorded", "failed", "recorded"),
        texts(sequence.get("items"), "outcome"));
    assertEquals("migrating for shop-1", sequence.at("/items/0/pods/0/containers/0/output").asText().strip());
    assertTrue(sequence.get("error").asText().startsWith("post hook failed"), sequence.toString());
    JsonNode verdicts = sequence.get("verdicts");
    assertEquals(List.of("true", "false", "false"), texts(verdicts, "ok"));
    assertTrue(verdicts.get(1).get("text").asText().contains("Ignore let the rollout go on"), verdicts.toString());
    assertEquals("HL314", verdicts.get(2).at("/rules/0").asText(), verdicts.toString());
    assertTrue(r.err().contains("post (Abort): a hook pod from container \"shop\" runs: /bin/sh -c 'echo smoke test "
        + "failed; exit 1'"), r.err());
  }

  @Test
  void aRetriedHookPodShowsEachRunWithItsExitAndOutput() throws Exception {
    // The README's example: the pre hook's pod is restarted under Retry until its third try succeeds.
    Path svg = dir.resolve("retry.svg");
    CliRun r = CliRun.of("run", "--yes", "--format", "json", "--timeline", svg.toString(), "--rollout",
        TestPaths.repoRoot().resolve("examples/rollout.yaml").toString());
    JsonNode pre = json(r).at("/sequences/0/items/0/pods/0/containers/0");
    assertEquals(2, pre.get("restarts").asInt(), pre.toString());
    JsonNode runs = pre.get("runs");
    assertEquals(3, runs.size(), pre.toString());
    for (int i = 0; i < 3; i++) {
      assertEquals(i, runs.get(i).get("restartCount").asInt(), runs.toString());
      assertEquals(i < 2 ? 1 : 0, runs.get(i).get("exitCode").asInt(), runs.toString());
      assertEquals("migrating shop-1, try " + (i + 1), runs.get(i).get("output").asText().strip(), runs.toString());
    }
    assertTrue(Files.readString(svg).contains(">output of recreateParams.pre, pod shop-1-hook-pre, lifecycle, run 2 "
        + "(exit 1)</text>"), "each run's output in the timeline");
  }

  @Test
  void aRolloutWhoseHookFailedUnderIgnoreCompletesButFailsTheRunInOneVerdict() throws Exception {
    Path file = dir.resolve("ignored.yaml");
    Files.writeString(file, """
        apiVersion: apps.openshift.io/v1
        kind: DeploymentConfig
        metadata:
          name: shop
        spec:
          replicas: 1
          strategy:
            type: Recreate
            recreateParams:
              post:
                failurePolicy: Ignore
                execNewPod:
                  containerName: shop
                  command: [/bin/sh, -c, 'echo notify failed; exit 3']
          template:
            spec:
              containers:
                - name: shop
                  image: debian:12
                  command: [sleep, infinity]
        """);
    CliRun json = CliRun.of("run", "--yes", "--format", "json", "--rollout", file.toString());
    assertEquals(1, json.exit(), json.err());
    JsonNode report = json(json);
    JsonNode sequence = report.get("sequences").get(0);
    assertTrue(sequence.get("error").isNull(), sequence.toString());
    assertFalse(report.get("succeeded").asBoolean());
    assertFalse(sequence.get("succeeded").asBoolean(), sequence.toString());
    assertTrue(sequence.get("outcome").asText().matches("completed after \\S+ s, as on a cluster, but a hook failed: "
        + "the run fails"), sequence.toString());
    CliRun text = CliRun.of("run", "--yes", "--color", "never", "--rollout", file.toString());
    assertEquals(1, text.exit(), text.err());
    assertTrue(text.out().contains("\ncompleted after "), text.out());
    assertFalse(text.out().contains("done after"), text.out());
  }

  @Test
  void theTextReportAndTheTimelineShowTheSequence() throws Exception {
    Path svg = dir.resolve("rollout.svg");
    CliRun r = CliRun.of("run", "--yes", "--color", "never", "--timeline", svg.toString(), "--rollout", "--resource",
        "shop", manifest("rollout.yaml"));
    assertEquals(1, r.exit(), r.err());
    assertTrue(r.out().contains("rollout of DeploymentConfig/shop (namespace "), r.out());
    assertTrue(r.out().contains("  recreateParams.post "), r.out());
    assertTrue(r.out().contains("        | smoke test failed"), r.out());
    assertTrue(r.out().contains("✗ recreateParams.post: failed after"), r.out());
    assertTrue(r.out().contains("failed: post hook failed"), r.out());
    String image = Files.readString(svg);
    // The heading, then its outcome on lines of its own, wrapped to the image's width.
    assertTrue(image.contains(">rollout of DeploymentConfig/shop</text>"), image);
    assertTrue(image.contains(">failed: post hook failed: the post hook failed: pod shop-1-hook-post failed,</text>"),
        image);
    assertTrue(image.contains("recreateParams.mid"), image);
  }

  @Test
  void withoutConsentNothingRunsAndThePlanSaysWhatWould() {
    CliRun r = CliRun.of("run", "--event", "install", manifest("helm-install.yaml"));
    assertEquals(2, r.exit());
    assertTrue(r.err().contains("hooklens run will run helm install from"), r.err());
    assertTrue(r.err().contains("1. Job/db-migrate (weight -1, delete policies before-hook-creation,hook-succeeded)"),
        r.err());
    assertTrue(r.err().contains("release: creates ConfigMap/web"), r.err());
    assertTrue(r.err().contains("nothing ran"), r.err());
    assertEquals("", r.out());
  }

  @Test
  void choicesThatCannotRunAreRefusedWithWhatThereIs() {
    CliRun both = CliRun.of("run", "--yes", "--event", "install", "--rollout", manifest("rollout.yaml"));
    assertEquals(2, both.exit());
    assertTrue(both.err().contains("choose one"), both.err());
    CliRun container = CliRun.of("run", "--yes", "--event", "install", "--container", "x",
        manifest("helm-install.yaml"));
    assertEquals(2, container.exit());
    assertTrue(container.err().contains("do not go with --event"), container.err());
    CliRun unknown = CliRun.of("run", "--yes", "--event", "pre-instal", manifest("helm-install.yaml"));
    assertEquals(2, unknown.exit());
    assertTrue(unknown.err().contains("is neither a Helm operation"), unknown.err());
    CliRun none = CliRun.of("run", "--yes", "--event", "pre-delete", manifest("helm-install.yaml"));
    assertEquals(2, none.exit());
    assertTrue(none.err().contains("events with hooks: pre-install (3), post-install (1), test (1)"), none.err());
    CliRun several = CliRun.of("run", "--yes", "--rollout", manifest("rollout.yaml"));
    assertEquals(2, several.exit());
    assertTrue(several.err().contains("several DeploymentConfigs (DeploymentConfig/shop, DeploymentConfig/plain)"),
        several.err());
    CliRun hookless = CliRun.of("run", "--yes", "--rollout", "--resource", "plain", manifest("rollout.yaml"));
    assertEquals(2, hookless.exit());
    assertTrue(hookless.err().contains("has no hooks that run on a rollout"), hookless.err());
    CliRun values = CliRun.of("run", "--yes", "--event", "install", "--set", "a=b", manifest("helm-install.yaml"));
    assertEquals(2, values.exit());
    assertTrue(values.err().contains("--values, --set, --release-name, --namespace and --dependency-update apply to charts only"), values.err());
  }
}
