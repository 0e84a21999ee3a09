package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import io.hooklens.TestCharts;
import io.hooklens.TestPaths;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `hooklens lint` on Helm charts: rendered with Helm, reported on the templates. */
class ChartLintCommandTest {
  @TempDir
  Path dir;

  private Path chart(String name) throws Exception {
    return TestPaths.chartCopy(name, dir);
  }

  @Test
  void aChartIsRenderedAndReportedOnItsTemplates() throws Exception {
    Path shop = chart("shop");
    CliRun r = CliRun.of("lint", shop.toString());
    assertEquals(1, r.exit(), r.err());
    assertTrue(r.out().contains(shop.resolve("templates/deployment.yaml") + ":26:13: warning HL401 preStop of "
        + "container \"web\" needs 45s but the grace period is 30s"), r.out());
    assertTrue(r.out().contains("to at least 60s. [values: values.yaml, ci/defaults-values.yaml] "
        + "[prestop-budget-exceeds-grace]"), r.out());
    assertTrue(r.out().contains("> 26 |             preStop:"), "the frame shows the template: " + r.out());
    assertTrue(r.out().contains(shop.resolve("templates/migrate-job.yaml") + ":31:26: error HL105"), r.out());
    assertTrue(r.out().contains("in 4 files."), "Chart.yaml and the three templates rendered: " + r.out());
  }

  @Test
  void aWalkLintsChartsAsChartsAndOtherFilesAsBefore() throws Exception {
    chart("shop");
    Files.writeString(dir.resolve("pod.yaml"), LintCommandTest.OVER_BUDGET);
    CliRun r = CliRun.of("lint", "--format", "json", dir.toString());
    JsonNode root = new ObjectMapper().readTree(r.out());
    boolean plain = false;
    for (JsonNode f : root.get("findings")) {
      String file = f.get("file").asText();
      assertFalse(file.endsWith("values.yaml"), "values files are no manifests: " + file);
      if (file.equals(dir.resolve("pod.yaml").toString())) {
        plain = true;
        assertFalse(f.has("values"), "a plain file's finding has no values sets");
      } else {
        assertTrue(f.get("values").isArray() && f.get("values").size() > 0, f.toString());
        assertFalse(f.get("rule").asText().equals("HL001"), "templates are rendered, not read masked: " + f);
      }
    }
    assertTrue(plain, r.out());
    assertEquals(5, root.at("/summary/files").asInt(), r.out());
  }

  @Test
  void chartYamlAsAnArgumentLintsItsChart() throws Exception {
    Path shop = chart("shop");
    CliRun r = CliRun.of("lint", shop.resolve("Chart.yaml").toString());
    assertTrue(r.out().contains("deployment.yaml:26:13: warning HL401"), r.out());
  }

  @Test
  void valuesSetAndSetApplyToCharts() throws Exception {
    Path shop = chart("shop");
    Path prod = Files.writeString(dir.resolve("prod.yaml"), "drainSeconds: 100\n");
    CliRun r = CliRun.of("lint", "--format", "json", "--set", "grace=60", "--values-set", prod.toString(),
        shop.toString());
    JsonNode root = new ObjectMapper().readTree(r.out());
    int hl401 = 0;
    for (JsonNode f : root.get("findings")) {
      if (f.get("rule").asText().equals("HL401")) {
        hl401++;
        assertTrue(f.get("message").asText().contains("needs 100s but the grace period is 60s"), f.toString());
        assertEquals(prod.toString(), f.at("/values/0").asText());
        assertEquals(1, f.get("values").size());
      }
    }
    assertEquals(1, hl401, r.out());
    CliRun missing = CliRun.of("lint", "--values-set", dir.resolve("nope.yaml").toString(), shop.toString());
    assertEquals(2, missing.exit());
    assertTrue(missing.err().contains("--values-set " + dir.resolve("nope.yaml") + ": no such file"),
        missing.err());
  }

  @Test
  void valuesLayerOnEveryValuesSetAsHelmFDoes() throws Exception {
    Path shop = chart("shop");
    Path prod = Files.writeString(dir.resolve("prod.yaml"), "drainSeconds: 100\n");
    Path later = Files.writeString(dir.resolve("later.yaml"), "grace: 60\n");
    CliRun r = CliRun.of("lint", "--format", "json", "--values", prod.toString(), "--values", later.toString(),
        shop.toString());
    JsonNode root = new ObjectMapper().readTree(r.out());
    List<String> hl401 = new ArrayList<>();
    for (JsonNode f : root.get("findings")) {
      if (f.get("rule").asText().equals("HL401")) {
        hl401.add(f.get("message").asText() + " " + f.get("values"));
      }
    }
    // The ci/ sets set the grace period themselves, but the files given win, as helm -f files do.
    assertEquals(1, hl401.size(), r.out());
    assertTrue(hl401.get(0).contains("needs 100s but the grace period is 60s"), hl401.get(0));
    assertTrue(hl401.get(0).endsWith("[\"values.yaml\",\"ci/defaults-values.yaml\",\"ci/short-grace-values.yaml\"]"),
        hl401.get(0));
    CliRun missing = CliRun.of("lint", "--values", dir.resolve("nope.yaml").toString(), shop.toString());
    assertEquals(2, missing.exit());
    assertTrue(missing.err().contains("--values " + dir.resolve("nope.yaml") + ": no such file"), missing.err());
  }

  @Test
  void oneSetArgumentSetsEveryPairItHolds() throws Exception {
    Path shop = chart("shop");
    CliRun r = CliRun.of("lint", "--format", "json", "--set", "grace=60,drainSeconds=100", shop.toString());
    JsonNode root = new ObjectMapper().readTree(r.out());
    List<String> hl401 = new ArrayList<>();
    root.get("findings").forEach(f -> {
      if (f.get("rule").asText().equals("HL401")) {
        hl401.add(f.get("message").asText());
      }
    });
    assertEquals(1, hl401.size(), r.out());
    assertTrue(hl401.get(0).contains("needs 100s but the grace period is 60s"), hl401::toString);
  }

  @Test
  void aSetArgumentHelmCannotReadIsAUsageErrorThatNamesIt() throws Exception {
    Path shop = chart("shop");
    Path missing = dir.resolve("nope.txt");
    Map<List<String>, String> cases = Map.of(
        List.of("--set", "a[x]=1"), "hooklens: --set a[x]=1: error parsing index: \"x\" is not a number\n",
        List.of("--set", "=1"), "hooklens: --set =1: empty key before \"=\"\n",
        List.of("--set-string", "a={x"), "hooklens: --set-string a={x: list must terminate with '}'\n",
        List.of("--set-file", "a=" + missing), "hooklens: --set-file a=" + missing + ": no such file: " + missing
            + "\n");
    for (Map.Entry<List<String>, String> c : cases.entrySet()) {
      CliRun r = CliRun.of("lint", c.getKey().get(0), c.getKey().get(1), shop.toString());
      assertEquals(2, r.exit(), c.getKey().toString());
      assertEquals(c.getValue(), r.err());
      assertEquals("", r.out());
    }
  }

  @Test
  void valuesSetsAndSetValuesFromTheConfigurationApplyToCharts() throws Exception {
    Path shop = chart("shop");
    Files.writeString(shop.resolve("prod.yaml"), "drainSeconds: 100\n");
    Files.writeString(dir.resolve(".hooklens.yaml"), """
        helm:
          values: [prod.yaml, staging.yaml]   # staging.yaml: not in this chart, so not rendered
          set: {grace: "60"}
        """);
    CliRun r = CliRun.of("lint", "--format", "json", shop.toString());
    JsonNode root = new ObjectMapper().readTree(r.out());
    int hl401 = 0;
    for (JsonNode f : root.get("findings")) {
      if (f.get("rule").asText().equals("HL401")) {
        hl401++;
        assertTrue(f.get("message").asText().contains("needs 100s but the grace period is 60s"), f.toString());
        assertEquals("prod.yaml", f.at("/values/0").asText(), f.toString());
      }
    }
    assertEquals(1, hl401, r.out());
    CliRun given = CliRun.of("lint", "--format", "json", "--set", "grace=200", shop.toString());
    assertFalse(given.out().contains("\"HL401\""), "--set wins over the configuration: " + given.out());
  }

  @Test
  void theReleaseNameAndNamespaceComeFromTheOptionsOverTheConfiguration() throws Exception {
    Path shop = chart("release-bound");
    Files.writeString(dir.resolve(".hooklens.yaml"), "helm:\n  releaseName: from-config\n");
    CliRun configured = CliRun.of("lint", shop.toString());
    assertTrue(configured.out().contains("Pod/from-config-smoke-test"), configured.out());
    CliRun given = CliRun.of("lint", "--release-name", "given", "--namespace", "web", shop.toString());
    assertTrue(given.out().contains("Pod/given-smoke-test"), given.out());
    CliRun bad = CliRun.of("lint", "--namespace", "Web", shop.toString());
    assertEquals(2, bad.exit(), bad.err());
    assertEquals("hooklens: --namespace: \"Web\" is no namespace name: lower-case letters, digits and '-', starting"
        + " and ending with a letter or digit, at most 63 characters\n", bad.err());
  }

  @Test
  void aDependencyHelmCannotBuildIsAUsageErrorNamingIt() throws Exception {
    Path parent = dir.resolve("parent");
    Files.createDirectories(parent.resolve("templates"));
    Files.writeString(parent.resolve("Chart.yaml"), "{apiVersion: v2, name: parent, version: 0.1.0, dependencies: "
        + "[{name: child, version: 0.1.0, repository: 'file://../child'}]}\n");
    CliRun r = CliRun.of("lint", "--dependency-update", parent.toString());
    assertEquals(2, r.exit(), r.err());
    assertTrue(r.err().startsWith("hooklens: cannot build the dependencies of chart " + parent
        + " (--dependency-update): "), r.err());
    assertTrue(r.err().contains(dir.resolve("child").toString()), r.err());
    assertFalse(Files.exists(parent.resolve("charts")));
  }

  @Test
  void aChartHelmCannotRenderFailsTheRunWithHl005() throws Exception {
    Path broken = chart("broken");
    CliRun r = CliRun.of("lint", broken.toString());
    assertEquals(1, r.exit(), r.err());
    assertTrue(r.out().contains(broken.resolve("templates/configmap.yaml") + ":4:3: error HL005 Helm cannot render "
        + "the chart with these values, so what it would install with them is not checked: parse error at "
        + "(broken-shop/templates/configmap.yaml:4): unexpected \"}\" in operand [values: values.yaml]"), r.out());
  }

  @Test
  void aManifestANamedTemplateDefinesIsLintedWhenTheChartIsNotRendered() throws Exception {
    Path chart = chart("refused-tpl");
    CliRun r = CliRun.of("lint", "--format", "json", chart.toString());
    assertEquals(1, r.exit(), r.err());
    assertTrue(r.out().contains("\"file\" : \"" + chart.resolve("templates/_daemonset.tpl") + "\""), r.out());
    assertTrue(r.out().contains("\"rule\" : \"HL101\""), r.out());
    // A named template that defines no manifest is no file to lint on its own.
    assertFalse(r.out().contains("_helpers.tpl"), r.out());
  }

  @Test
  void aTemplateOfAChartHelmCannotRenderIsUncheckedForThatReasonAndAloneForWantOfTheRenderedChart()
      throws Exception {
    Path chart = TestCharts.write(dir, "needs-config", Map.of("templates/secret.yaml", """
        apiVersion: v1
        kind: Secret
        metadata:
          name: app
        {{ if .Values.secretConfig -}} stringData: {{- else -}} data: {{- end }}
          config.yml: {{ required "config is required" .Values.config | b64enc }}
        """));
    Path secret = chart.resolve("templates/secret.yaml");
    String notYaml = secret + ":5:61: info HL001 This template document is not YAML until it is rendered";

    CliRun inChart = CliRun.of("lint", chart.toString());
    assertEquals(1, inChart.exit(), inChart.err());
    assertTrue(inChart.out().contains(secret + ":6:18: error HL005 Helm cannot render the chart with these values, "
        + "so what it would install with them is not checked: execution error at (needs-config/templates/secret.yaml"
        + ":6:17): config is required"), inChart.out());
    assertTrue(inChart.out().contains(notYaml), inChart.out());
    assertTrue(inChart.out().contains("it is not checked, since Helm could not render the chart (HL005 says why)."),
        inChart.out());
    assertFalse(inChart.out().contains("Lint the rendered chart"), inChart.out());

    CliRun alone = CliRun.of("lint", secret.toString());
    assertTrue(alone.out().contains(notYaml), alone.out());
    assertTrue(alone.out().contains("it is not checked. Lint the rendered chart to check it."), alone.out());
  }

  @Test
  void sarifCarriesTheValuesSetsAndStaysValid() throws Exception {
    CliRun r = CliRun.of("lint", "--format", "sarif", chart("shop").toString());
    JsonSchema schema;
    try (InputStream in = ChartLintCommandTest.class.getResourceAsStream("/schema/sarif-schema-2.1.0.json")) {
      schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V7).getSchema(in);
    }
    JsonNode sarif = new ObjectMapper().readTree(r.out());
    assertEquals(Set.of(), schema.validate(sarif), r.out());
    JsonNode result = sarif.at("/runs/0/results/0");
    assertTrue(result.at("/properties/values").isArray(), result.toString());
    assertTrue(result.at("/message/text").asText().contains("[values: "), result.toString());
  }

  @Test
  void excludesApplyToChartsInAWalk() throws Exception {
    chart("shop");
    chart("broken");
    Files.writeString(dir.resolve(".hooklens.yaml"), "exclude:\n  - broken/**\n  - shop/charts/**\n",
        StandardCharsets.UTF_8);
    CliRun r = CliRun.of("lint", dir.toString());
    assertFalse(r.out().contains("HL005"), r.out());
    assertFalse(r.out().contains("daemonset.yaml"), r.out());
    assertTrue(r.out().contains("deployment.yaml"), r.out());
  }

  @Test
  void whereHelmCannotRunChartsAreLintedTemplateByTemplate() throws Exception {
    Path shop = chart("shop");
    Path pod = Files.writeString(dir.resolve("pod.yaml"), LintCommandTest.CLEAN);
    String arch = System.getProperty("os.arch");
    try {
      System.setProperty("os.arch", "aarch64");
      CliRun plain = CliRun.of("lint", pod.toString());
      assertEquals("", plain.err(), "no word about charts when there is none");
      CliRun r = CliRun.of("lint", shop.toString(), pod.toString());
      assertTrue(r.err().contains("charts are linted template by template, not rendered: Helm's native library "
          + "is bundled for linux-amd64 only"), r.err());
      assertTrue(r.out().contains(shop.resolve("templates/migrate-job.yaml") + ":31:26: error HL105"), r.out());
      assertFalse(r.out().contains("[values: "), r.out());
    } finally {
      System.setProperty("os.arch", arch);
    }
  }

  @Test
  void aLibraryChartIsLintedTemplateByTemplateWithoutRendering() throws Exception {
    Path lib = Files.createDirectories(dir.resolve("lib/templates"));
    Files.writeString(dir.resolve("lib/Chart.yaml"), "apiVersion: v2\nname: lib\nversion: 1.0.0\ntype: library\n");
    Files.writeString(lib.resolve("_pod.tpl"), "{{- define \"lib.pod\" -}}\nrestartPolicy: Never\n{{- end }}\n");
    Files.writeString(lib.resolve("pod.yaml"), """
        apiVersion: v1
        kind: Pod
        metadata:
          name: {{ .Release.Name }}
        spec:
          containers:
            - name: app
              image: nginx
              lifecycle:
                postStart: {}
        """);
    CliRun r = CliRun.of("lint", dir.resolve("lib").toString());
    assertEquals(1, r.exit(), r.err());
    assertEquals("", r.err(), "no word about rendering");
    assertFalse(r.out().contains("HL005"), "Helm refuses a library chart by design: " + r.out());
    assertTrue(r.out().contains(lib.resolve("pod.yaml") + ":10:9: error HL101"), r.out());
  }

  @Test
  void aChartWithMissingDependenciesIsRenderedWithoutThemAndSaysSo() throws Exception {
    Path chart = java.nio.file.Files.createDirectories(dir.resolve("app/templates"));
    java.nio.file.Files.writeString(dir.resolve("app/Chart.yaml"), """
        apiVersion: v2
        name: app
        version: 1.0.0
        dependencies:
          - name: postgresql
            version: 15.0.0
            repository: oci://registry.example/charts
        """);
    java.nio.file.Files.writeString(chart.resolve("pod.yaml"), """
        apiVersion: v1
        kind: Pod
        metadata:
          name: {{ .Release.Name }}
        spec:
          containers:
            - name: app
              image: nginx
              lifecycle:
                preStop: {}
        """);
    CliRun r = CliRun.of("lint", dir.resolve("app").toString());
    assertEquals(1, r.exit(), r.err());
    assertFalse(r.out().contains("HL005"), r.out());
    assertTrue(r.out().contains(dir.resolve("app/Chart.yaml") + ":5:3: info HL006 The chart is linted as Helm rendered"
        + " it in part: rendered without dependency postgresql (not in charts/; run helm dependency build, or give --dependency-update)"), r.out());
    assertTrue(r.out().contains(chart.resolve("pod.yaml") + ":10:9: error HL101"), r.out());
  }
}
