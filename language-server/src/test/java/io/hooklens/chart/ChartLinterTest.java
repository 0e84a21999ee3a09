package io.hooklens.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.TestCharts;
import io.hooklens.TestPaths;
import io.hooklens.core.engine.Config;
import io.hooklens.core.engine.Finding;
import io.hooklens.core.engine.Linter;
import io.hooklens.rules.BuiltInRules;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Charts rendered with real Helm (helm-java), findings mapped back to their templates. */
class ChartLinterTest {
  private static final ChartLinter CHARTS = new ChartLinter(new Linter(BuiltInRules.registry()));

  @TempDir
  Path tmp;

  /** A finding as a test reads it: file relative to the chart, 1-based line and column. */
  record Seen(String file, int line, int column, String ruleId, String message, List<String> values) {
    @Override
    public String toString() {
      return file + ":" + line + ":" + column + " " + ruleId + " " + message + " " + values;
    }
  }

  static Path chart(String name) {
    return TestPaths.repoRoot().resolve("language-server/src/test/resources/charts").resolve(name);
  }

  static List<Seen> lint(Path chart, List<Path> values, SetValues set) throws IOException {
    List<Seen> out = new ArrayList<>();
    List<ValuesSet> sets = ChartLinter.valuesSets(chart, values);
    for (ChartLinter.ChartFile f : CHARTS.lint(chart, List.of(), sets, set, Config.DEFAULT).files()) {
      assertEquals(List.of(), f.result().failures(), "no rule may fail");
      String file = chart.relativize(Path.of(f.displayName())).toString();
      for (Finding x : f.result().findings()) {
        out.add(new Seen(file, x.range().start().line() + 1, x.range().start().column() + 1, x.ruleId(),
            x.message(), f.valuesSets().get(x)));
      }
    }
    return out;
  }

  private static Seen only(List<Seen> all, String file, String ruleId, String fragment) {
    List<Seen> matching = all.stream()
        .filter(s -> s.file().equals(file) && s.ruleId().equals(ruleId) && s.message().contains(fragment)).toList();
    assertEquals(1, matching.size(), "one " + ruleId + " \"" + fragment + "\" in " + file + " among " + all);
    return matching.get(0);
  }

  @Test
  void findingsLandOnTheTemplateLineTheyCameFrom() throws IOException {
    List<Seen> all = lint(chart("shop"), List.of(), SetValues.NONE);
    Seen preStop = only(all, "templates/deployment.yaml", "HL401", "grace period is 30s");
    assertEquals(26, preStop.line());
    assertEquals(13, preStop.column());
    Seen subchart = only(all, "charts/worker/templates/daemonset.yaml", "HL101", "postStart");
    assertEquals(18, subchart.line());
    assertTrue(all.stream().noneMatch(s -> s.ruleId().equals("HL005")), "lookup renders without a cluster: " + all);
  }

  @Test
  void relatedPlacesPointAtTheTemplateActionThatGaveTheValue() throws IOException {
    Path shop = chart("shop");
    Finding preStop = CHARTS.lint(shop, List.of(), List.of(ValuesSet.DEFAULTS), SetValues.NONE, Config.DEFAULT).files().stream()
        .filter(f -> f.displayName().endsWith("deployment.yaml"))
        .flatMap(f -> f.result().findings().stream()).filter(f -> f.ruleId().equals("HL401"))
        .findFirst().orElseThrow();
    String template = Files.readString(shop.resolve("templates/deployment.yaml"), StandardCharsets.UTF_8);
    assertEquals(SourceMapperTest.at(template, "{{ .Values.grace }}"), preStop.related().get(0).range());
  }

  @Test
  void hookResourcesAreRenderedAndLinted() throws IOException {
    List<Seen> all = lint(chart("shop"), List.of(), SetValues.NONE);
    Seen inHookJob = only(all, "templates/migrate-job.yaml", "HL105", "sleep.seconds=25");
    assertEquals(31, inHookJob.line());
    try (ChartCopy copy = ChartCopy.of(chart("shop"))) {
      ChartRenderer.Rendering r = ChartRenderer.render(copy, List.of(), SetValues.NONE.forHelm(copy),
          Config.DEFAULT.targets().kubernetes(), Release.DEFAULT);
      String manifests = ((ChartRenderer.Rendered) r).manifests();
      assertTrue(manifests.contains("kind: Job"), manifests);
      assertTrue(manifests.contains("\"helm.sh/hook\": pre-install,pre-upgrade"), manifests);
      assertTrue(manifests.contains("\"helm.sh/hook-weight\": \"-5\""), manifests);
      assertFalse(manifests.contains(HelmText.HIDDEN_HOOK), manifests);
    }
  }

  @Test
  void eachFindingIsReportedOnceWithTheValuesSetsThatProduceIt() throws IOException {
    List<Seen> all = lint(chart("shop"), List.of(), SetValues.NONE);
    assertEquals(List.of("values.yaml", "ci/defaults-values.yaml"),
        only(all, "templates/deployment.yaml", "HL401", "grace period is 30s").values());
    assertEquals(List.of("ci/short-grace-values.yaml"),
        only(all, "templates/deployment.yaml", "HL401", "grace period is 20s").values());
    assertEquals(List.of("values.yaml", "ci/defaults-values.yaml", "ci/short-grace-values.yaml"),
        only(all, "charts/worker/templates/daemonset.yaml", "HL101", "postStart").values());
  }

  @Test
  void valuesFilesAndSetValuesFromTheCommandLineApply() throws IOException {
    Path prod = Files.writeString(tmp.resolve("prod.yaml"), "drainSeconds: 100\n");
    List<Seen> all = lint(chart("shop"), List.of(prod), new SetValues(List.of("grace=60"), List.of(), List.of()));
    Seen fromFile = only(all, "templates/deployment.yaml", "HL401", "needs 100s but the grace period is 60s");
    assertEquals(List.of(prod.toString()), fromFile.values());
    assertTrue(all.stream().noneMatch(s -> s.ruleId().equals("HL401") && s.message().contains("needs 45s")),
        "--set reaches every values set: " + all);
  }

  @Test
  void archivedSubchartsAreRenderedUnderTheirAlias() throws IOException {
    List<Seen> all = lint(chart("packed"), List.of(), SetValues.NONE);
    Seen hook = only(all, "charts/cleanup-0.2.0.tgz/cleanup/templates/hook.yaml", "HL105", "sleep.seconds=30");
    assertEquals(15, hook.line());
  }

  @Test
  void aChartHelmCannotRenderIsAFindingWithHelmsMessage() throws IOException {
    List<Seen> all = lint(chart("broken"), List.of(), SetValues.NONE);
    assertEquals(1, all.size(), all.toString());
    Seen failed = all.get(0);
    assertEquals("templates/configmap.yaml", failed.file());
    assertEquals("HL005", failed.ruleId());
    assertEquals(4, failed.line());
    assertTrue(failed.message().endsWith(
        "parse error at (broken-shop/templates/configmap.yaml:4): unexpected \"}\" in operand"), failed.message());
    assertFalse(failed.message().contains("--debug"), failed.message());
  }

  @Test
  void failuresWithoutATemplatePositionGoToTheFileHelmNames() throws IOException {
    Path chart = copyOf(chart("broken"));
    Files.writeString(chart.resolve("templates/configmap.yaml"), "kind: ConfigMap\n");
    Path bad = Files.writeString(tmp.resolve("bad-values.yaml"), "a: 1\n b: [\n");
    List<Seen> badValues = lint(chart, List.of(bad), SetValues.NONE);
    Seen inValues = only(badValues, chart.relativize(bad).toString(), "HL005", "yaml: line 2");
    assertEquals(2, inValues.line());
    assertEquals(List.of(bad.toString()), inValues.values());
    assertFalse(inValues.message().contains(System.getProperty("java.io.tmpdir") + "/hooklens-chart-"),
        "paths of the copy are replaced: " + inValues.message());
    Files.writeString(chart.resolve("Chart.yaml"), "apiVersion: v2\nname: needy\nversion: 0.1.0\n"
        + "dependencies:\n  - name: redis\n    version: 1.0.0\n");
    Seen missing = only(lint(chart, List.of(), SetValues.NONE), "Chart.yaml", "HL006",
        "rendered without dependency redis (not in charts/; run helm dependency build, or give --dependency-update)");
    assertEquals(5, missing.line());
  }

  @Test
  void aDependencyMissingFromChartsIsLeftOutAndTheParentsTemplatesRender() throws IOException {
    List<Seen> all = lint(chart("unvendored"), List.of(), SetValues.NONE);
    // The disabled dependency must not stop the render either, and the one the templates use renders nothing.
    assertEquals(5, only(all, "Chart.yaml", "HL006", "rendered without dependency common (not in charts/").line());
    assertEquals(8, only(all, "Chart.yaml", "HL006", "rendered without dependency postgresql (not in charts/")
        .line());
    Seen hook = only(all, "templates/migrate-job.yaml", "HL215", "no restartPolicy");
    assertEquals(11, hook.line());
    assertEquals(List.of("values.yaml"), hook.values());
    assertTrue(all.stream().noneMatch(s -> s.ruleId().equals("HL005")), all.toString());
  }

  @Test
  void vendoredDependenciesRenderInFullWithoutANote() throws IOException {
    Path chart = copyOf(chart("unvendored"));
    for (String dep : List.of("common", "postgresql")) {
      Path sub = Files.createDirectories(chart.resolve("charts/" + dep + "/templates"));
      Files.writeString(sub.getParent().resolve("Chart.yaml"), "apiVersion: v2\nname: " + dep + "\nversion: 1.0.0\n");
    }
    Files.writeString(chart.resolve("charts/common/templates/_names.tpl"), """
        {{- define "common.names.fullname" -}}{{ .Release.Name }}{{- end -}}
        {{- define "common.labels.standard" -}}app: {{ .context.Chart.Name }}{{- end -}}
        """);
    List<Seen> all = lint(chart, List.of(), SetValues.NONE);
    assertTrue(all.stream().noneMatch(s -> s.ruleId().equals("HL006") || s.ruleId().equals("HL005")), all.toString());
    assertTrue(only(all, "templates/migrate-job.yaml", "HL215", "Job/release-migrate").line() == 11, all.toString());
  }

  @Test
  void aRequiredValueGetsAPlaceholderAndTheRestOfTheChartIsChecked() throws IOException {
    List<Seen> all = lint(chart("required-value"), List.of(), SetValues.NONE);
    Seen refused = only(all, "templates/secret.yaml", "HL005", "A valid .Values.adminPassword entry is required!");
    Seen note = only(all, "templates/secret.yaml", "HL006", "rendered with placeholder for .Values.adminPassword");
    assertEquals(refused.line(), note.line());
    assertEquals(List.of("values.yaml"), note.values());
    assertEquals(9, only(all, "templates/seed-job.yaml", "HL215", "Job/release-seed").line());
  }

  @Test
  void aRequiredValueGivenRendersInFullWithoutANote() throws IOException {
    List<Seen> all = lint(chart("required-value"), List.of(),
        new SetValues(List.of("adminPassword=s3cret"), List.of(), List.of()));
    assertTrue(all.stream().noneMatch(s -> s.ruleId().equals("HL006") || s.ruleId().equals("HL005")), all.toString());
    assertEquals(9, only(all, "templates/seed-job.yaml", "HL215", "Job/release-seed").line());
  }

  @Test
  void aRenderForHooksSaysWhatItLeftOut() throws IOException {
    ChartLinter.Manifests m = (ChartLinter.Manifests) ChartLinter.render(chart("required-value"), List.of(),
        SetValues.NONE, Config.DEFAULT.targets().kubernetes());
    assertEquals(List.of(chart("required-value") + ": rendered with placeholder for .Values.adminPassword (Helm refused"
        + " these values without it)"), m.notes());
    assertEquals(2, m.parsed().documents().size());
  }

  @Test
  void theIncorrectAndCorrectExamplesOfHl005Hold() throws IOException {
    String page = Files.readString(TestPaths.repoRoot().resolve("docs/rules/HL005.md"), StandardCharsets.UTF_8);
    Matcher m = Pattern.compile("## (Incorrect|Correct)\\s*\\n(?:[^`]*?\\n)?```yaml\\n(.*?)```", Pattern.DOTALL)
        .matcher(page);
    int examples = 0;
    while (m.find()) {
      Path chart = Files.createDirectories(tmp.resolve("example-" + examples++));
      Files.writeString(chart.resolve("Chart.yaml"), "apiVersion: v2\nname: example\nversion: 0.1.0\n");
      Files.createDirectories(chart.resolve("templates"));
      Files.writeString(chart.resolve("templates/configmap.yaml"), m.group(2));
      List<Seen> found = lint(chart, List.of(), SetValues.NONE);
      if (m.group(1).equals("Incorrect")) {
        assertEquals("HL005", only(found, "templates/configmap.yaml", "HL005", "parse error").ruleId());
      } else {
        assertEquals(List.of(), found);
      }
    }
    assertEquals(2, examples, "an Incorrect and a Correct example");
  }

  @Test
  void theIncorrectAndCorrectExamplesOfHl006Hold() throws IOException {
    String page = Files.readString(TestPaths.repoRoot().resolve("docs/rules/HL006.md"), StandardCharsets.UTF_8);
    Matcher m = Pattern.compile("## (Incorrect|Correct)\\s*\\n(?:[^`]*?\\n)?```yaml\\n(.*?)```", Pattern.DOTALL)
        .matcher(page);
    assertTrue(m.find() && m.group(1).equals("Incorrect"), "the Incorrect example comes first");
    Path chart = Files.createDirectories(tmp.resolve("example/templates")).getParent();
    Files.writeString(chart.resolve("Chart.yaml"), "apiVersion: v2\nname: example\nversion: 0.1.0\n");
    Files.writeString(chart.resolve("templates/secret.yaml"), m.group(2));
    only(lint(chart, List.of(), SetValues.NONE), "templates/secret.yaml", "HL006", "placeholder for .Values.password");
    assertTrue(m.find() && m.group(1).equals("Correct"), "then the Correct one, the values.yaml");
    Files.writeString(chart.resolve("values.yaml"), m.group(2));
    assertEquals(List.of(), lint(chart, List.of(), SetValues.NONE));
  }

  @Test
  void aHookTypoAmidTemplateActionsIsReportedOnItsTemplateLineAndColumn() throws IOException {
    Path chart = chart("hook-typo");
    List<Seen> all = lint(chart, List.of(), SetValues.NONE);
    assertEquals(List.of("templates/seed-job.yaml:12:21 HL201 [values.yaml]"), places(all));
    assertTrue(all.get(0).message().contains("\"pre-instal\"; did you mean \"pre-install\"?"), all.toString());
    // In Helm's output the labels and annotations that include and toYaml write move it to line 13 of the document.
    try (ChartCopy copy = ChartCopy.of(chart)) {
      String manifests = ((ChartRenderer.Rendered) ChartRenderer.render(copy, List.of(), SetValues.NONE.forHelm(copy),
          Config.DEFAULT.targets().kubernetes(), Release.DEFAULT)).manifests();
      List<String> lines = manifests.lines().toList();
      int header = lines.indexOf("# Source: hook-typo/templates/seed-job.yaml");
      int hook = lines.indexOf("    \"helm.sh/hook\": pre-instal");
      assertEquals(13, hook - header, manifests);
    }
  }

  @Test
  void aFindingOnlyOneCiValuesSetTriggersNamesOnlyThatSet() throws IOException {
    List<Seen> all = lint(chart("ci-hook"), List.of(), SetValues.NONE);
    assertEquals(List.of("templates/cleanup-job.yaml:8:35 HL208 [ci/cleanup-values.yaml]"), places(all));
    assertTrue(all.get(0).message().contains("\"hook-succeded\""), all.toString());
  }

  @Test
  void aSubchartsHookIsLintedWithTheValuesItsParentGivesIt() throws IOException {
    List<Seen> all = lint(chart("umbrella"), List.of(), SetValues.NONE);
    assertEquals(List.of("charts/notifier/templates/announce-job.yaml:9:26 HL223 [values.yaml]"), places(all));
    assertTrue(all.get(0).message().contains("lets this Job run for 600s"), "the parent's value wins: " + all);
  }

  @Test
  void equalWeightsInTwoTemplatesRunInNameOrderAndALowerWeightFixesIt() throws IOException {
    List<Seen> all = lint(chart("hook-order"), List.of(), SetValues.NONE);
    assertEquals(List.of("templates/serviceaccount.yaml:9:28 HL221 [values.yaml]"), places(all));
    assertTrue(all.get(0).message().contains("in pre-install, pre-upgrade, Job/a-migrate runs and is waited for "
        + "before ServiceAccount/z-sa, which it needs, is created"), all.toString());
  }

  @Test
  void helmignoreLeavesFilesOutAsHelmDoesAndARuleHelmRefusesIsHelmsError() throws IOException {
    Path chart = Files.createDirectories(tmp.resolve("ignoring/templates"));
    Files.writeString(tmp.resolve("ignoring/Chart.yaml"), "apiVersion: v2\nname: ignoring\nversion: 0.1.0\n");
    String pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: %s\nspec:\n  containers:\n    - name: app\n"
        + "      image: nginx\n      lifecycle:\n        postStart: {}\n";
    Files.writeString(chart.resolve("kept.yaml"), pod.formatted("kept"));
    Files.writeString(chart.resolve("draft.yaml"), pod.formatted("draft"));
    Files.writeString(chart.resolve(".hidden.yaml"), pod.formatted("hidden"));
    Files.writeString(tmp.resolve("ignoring/.helmignore"), "# work in progress\ntemplates/draft.*\n");
    List<Seen> all = lint(chart.getParent(), List.of(), SetValues.NONE);
    assertEquals(List.of("templates/kept.yaml:10:9 HL101 [values.yaml]"), places(all));
    Files.writeString(tmp.resolve("ignoring/.helmignore"), "**/draft.yaml\n");
    Seen refused = only(lint(chart.getParent(), List.of(), SetValues.NONE), "Chart.yaml", "HL005", "double-star");
    assertEquals(List.of("values.yaml"), refused.values());
  }

  /** Where each finding is, with its rule and values sets, in report order. */
  private static List<String> places(List<Seen> all) {
    return all.stream().map(s -> s.file() + ":" + s.line() + ":" + s.column() + " " + s.ruleId() + " " + s.values())
        .toList();
  }

  @Test
  void chartYamlComesFirstThenEveryRenderedFileByName() throws IOException {
    Path shop = chart("shop");
    List<String> files = CHARTS.lint(shop, List.of(), ChartLinter.valuesSets(shop, List.of()), SetValues.NONE,
            Config.DEFAULT).files().stream()
        .map(f -> shop.relativize(Path.of(f.displayName())).toString()).toList();
    assertEquals(List.of("Chart.yaml", "charts/worker/templates/daemonset.yaml", "templates/deployment.yaml",
        "templates/migrate-job.yaml"), files);
  }

  @Test
  void theCopyIsDeletedAfterUse() throws IOException {
    Path root;
    try (ChartCopy copy = ChartCopy.of(chart("shop"))) {
      root = copy.root();
      assertTrue(TarGz.read(Files.readAllBytes(root)).stream()
          .anyMatch(e -> e.path().equals("chart/templates/migrate-job.yaml")), "the archive holds the chart");
    }
    assertFalse(Files.exists(root.getParent()), "deleted: " + root.getParent());
  }

  @Test
  void aChartThatRendersNothingHasNothingToReport() throws IOException {
    Path chart = TestCharts.write(tmp, "off", Map.of("templates/job.yaml", """
        {{- if .Values.enabled }}
        apiVersion: batch/v1
        kind: Job
        {{- end }}
        """));
    assertEquals(List.of(), lint(chart, List.of(), SetValues.NONE));
    ChartLinter.Manifests m = (ChartLinter.Manifests) ChartLinter.render(chart, List.of(), SetValues.NONE,
        Config.DEFAULT.targets().kubernetes());
    assertEquals(List.of(), m.parsed().documents());
  }

  @Test
  void aBlockWrittenFromTheValuesIsReportedInTheValuesFileWithTheTemplateAsRelated() throws IOException {
    Path chart = chart("values-place");
    List<Seen> all = lint(chart, List.of(), SetValues.NONE);
    Seen fromCi = only(all, "ci/lifecycle-values.yaml", "HL125", "\"gateway\"");
    assertEquals(List.of(3, 3), List.of(fromCi.line(), fromCi.column()));
    assertEquals(List.of("ci/lifecycle-values.yaml"), fromCi.values());
    Seen fromDefaults = only(all, "values.yaml", "HL125", "\"sidecar\"");
    assertEquals(List.of(4, 3), List.of(fromDefaults.line(), fromDefaults.column()));
    // What a template writes itself stays on it; what a helper writes, on the helper.
    assertEquals(18, only(all, "templates/worker.yaml", "HL125", "\"worker\"").line());
    assertEquals(15, only(all, "templates/_helpers.tpl", "HL125", "\"helper-written\"").line());

    Finding onValues = CHARTS.lint(chart, List.of(), ChartLinter.valuesSets(chart, List.of()), SetValues.NONE,
        Config.DEFAULT).files().stream().filter(f -> f.displayName().endsWith("lifecycle-values.yaml"))
        .flatMap(f -> f.result().findings().stream()).findFirst().orElseThrow();
    Finding.Related template = onValues.related().get(0);
    assertEquals(chart.resolve("templates/deployment.yaml").toString(), template.file());
    assertEquals(13, template.range().start().line() + 1);
  }

  @Test
  void aValueAHelperWritesLiterallyIsReportedOnTheHelpersLineWithTheIncludeAsRelated() throws IOException {
    Path chart = chart("helper-place");
    List<Seen> all = lint(chart, List.of(), SetValues.NONE);
    // include | nindent: on the seconds the helper writes; a helper that includes another: on the inner one's
    // preStop; include | indent, and template.
    assertEquals(List.of(6, 16), at(only(all, "templates/_helpers.tpl", "HL105", "sleep.seconds=90")));
    assertEquals(List.of(10, 1), at(only(all, "templates/_helpers.tpl", "HL125", "\"sidecar\"")));
    assertEquals(List.of(22, 3), at(only(all, "templates/_helpers.tpl", "HL125", "\"drain\"")));
    assertEquals(List.of(29, 13), at(only(all, "templates/_helpers.tpl", "HL125", "\"worker\"")));
    // A sleep the helper computes from a value, and a block two included helpers write alike, stay on the template.
    only(all, "templates/deployment.yaml", "HL125", "\"computed\"");
    only(all, "templates/twins.yaml", "HL125", "\"twin-a\"");
    only(all, "templates/twins.yaml", "HL125", "\"twin-b\"");

    Map<String, Finding> onHelpers = new java.util.HashMap<>();
    for (ChartLinter.ChartFile f : CHARTS.lint(chart, List.of(), ChartLinter.valuesSets(chart, List.of()),
        SetValues.NONE, Config.DEFAULT).files()) {
      if (f.displayName().endsWith("_helpers.tpl")) {
        f.result().findings().forEach(x -> onHelpers.put(x.ruleId() + " " + x.range().start().line(), x));
      }
    }
    Finding.Related included = onHelpers.get("HL105 5").related().get(0);
    assertEquals(chart.resolve("templates/deployment.yaml").toString(), included.file());
    assertEquals(17, included.range().start().line() + 1);
    Finding.Related throughHelper = onHelpers.get("HL125 9").related().get(0);
    assertEquals(chart.resolve("templates/deployment.yaml").toString(), throughHelper.file());
    assertEquals(20, throughHelper.range().start().line() + 1, "the include of the outer helper");
    Finding.Related template = onHelpers.get("HL125 28").related().get(0);
    assertEquals(chart.resolve("templates/worker.yaml").toString(), template.file());
    assertEquals(17, template.range().start().line() + 1);
  }

  private static List<Integer> at(Seen s) {
    return List.of(s.line(), s.column());
  }

  @Test
  void aValuesFileGivenOnTheCommandLineIsWhereItsBlockIsReported() throws IOException {
    Path prod = Files.writeString(tmp.resolve("prod.yaml"), """
        sidecarLifecycle:
          preStop:
            exec:
              command: ["/bin/sh", "-c", "sleep 20"]
        """);
    List<Seen> all = new ArrayList<>();
    Path chart = chart("values-place");
    for (ChartLinter.ChartFile f : CHARTS.lint(chart, List.of(prod), List.of(ValuesSet.DEFAULTS), SetValues.NONE,
        Config.DEFAULT).files()) {
      for (Finding x : f.result().findings()) {
        all.add(new Seen(f.displayName(), x.range().start().line() + 1, x.range().start().column() + 1,
            x.ruleId(), x.message(), f.valuesSets().get(x)));
      }
    }
    Seen sidecar = only(all, prod.toString(), "HL125", "\"sidecar\" only sleeps 20s");
    assertEquals(2, sidecar.line());
  }

  @Test
  void crdCopiesFromFilesGetAreReportedOneByOneAndInfoWhenCrdsHoldsThem() throws IOException {
    List<Seen> all = lint(chart("crd-copies"), List.of(), SetValues.NONE);
    Seen backups = only(all, "templates/crds.yaml", "HL202", "CustomResourceDefinition/backups.example.com");
    Seen restores = only(all, "templates/crds.yaml", "HL202", "CustomResourceDefinition/restores.example.com");
    assertEquals(List.of(2, 2), List.of(backups.line(), restores.line()));
    assertTrue(backups.message().contains("crds/ directory holds"), backups.message());
    Seen legacy = only(all, "templates/legacy-crds.yaml", "HL202", "CustomResourceDefinition/schedules.example.com");
    assertTrue(legacy.message().contains("Put CRDs in the chart's crds/ directory"), legacy.message());
    List<ChartLinter.ChartFile> files = CHARTS.lint(chart("crd-copies"), List.of(), List.of(ValuesSet.DEFAULTS),
        SetValues.NONE, Config.DEFAULT).files();
    Map<String, io.hooklens.core.engine.Severity> severities = new java.util.TreeMap<>();
    files.forEach(f -> f.result().findings().forEach(x -> severities.put(x.message().replaceAll(".*Definition/(\\w+).*", "$1"),
        x.severity())));
    assertEquals(Map.of("backups", io.hooklens.core.engine.Severity.INFO, "restores",
        io.hooklens.core.engine.Severity.INFO, "schedules", io.hooklens.core.engine.Severity.ERROR), severities);
  }

  @Test
  void aFindingThatHoldsOnlyForTheReleaseNameItWasRenderedWithSaysSo() throws IOException {
    List<Seen> all = lint(chart("release-bound"), List.of(), SetValues.NONE);
    Seen order = only(all, "templates/hooks.yaml", "HL221", "release-dashboard-scripts");
    assertTrue(order.message().endsWith("(holds for release name \"release\"; not for release name \"dashboard\")"),
        order.message());
    Seen pod = only(all, "templates/hooks.yaml", "HL216", "release-smoke-test");
    assertFalse(pod.message().contains("holds for"), pod.message());
  }

  @Test
  void theReleaseNameAndNamespaceGivenAreWhatTemplatesSee() throws IOException {
    List<Seen> all = lint(chart("release-bound"), new Release("shop", "web"));
    Seen order = only(all, "templates/hooks.yaml", "HL221", "shop-dashboard-scripts");
    assertTrue(order.message().endsWith("(holds for release name \"shop\"; not for release name \"dashboard\")"),
        order.message());
    only(all, "templates/hooks.yaml", "HL216", "shop-smoke-test");
  }

  @Test
  void aFindingThatHoldsOnlyForTheNamespaceItWasRenderedInSaysSo() throws IOException {
    List<Seen> all = lint(chart("namespace-bound"), Release.DEFAULT);
    Seen order = only(all, "templates/incorrect.yaml", "HL221", "default-migrate");
    assertTrue(order.message().endsWith("(holds for namespace \"default\"; not for namespace \"tools\")"),
        order.message());
    assertTrue(all.stream().noneMatch(s -> s.file().equals("templates/correct.yaml")), all.toString());
  }

  @Test
  void aFindingOnlyAnotherNamespaceHasIsReportedAndSaysSo() throws IOException {
    List<Seen> all = lint(chart("namespace-bound"), Release.DEFAULT);
    Seen pod = only(all, "templates/incorrect.yaml", "HL216", "release-warmup");
    assertTrue(pod.message().endsWith("(holds for namespace \"tools\"; not for namespace \"default\", the one"
        + " linted)"), pod.message());
    // Linted in "tools", the same finding holds there and the ordering one does not.
    List<Seen> tools = lint(chart("namespace-bound"), new Release("release", "tools"));
    assertFalse(only(tools, "templates/incorrect.yaml", "HL216", "release-warmup").message().contains("holds for"));
    assertTrue(tools.stream().noneMatch(s -> s.ruleId().equals("HL221") && !s.message().contains(
        "holds for namespace \"hooklens-check\"")), tools.toString());
  }

  /** A parent chart whose dependency is a folder beside it, {@code file://../child}, and that child. */
  static Path parentWithLocalDependency(Path tmp) throws IOException {
    Path child = tmp.resolve("child");
    Files.createDirectories(child.resolve("templates"));
    Files.writeString(child.resolve("Chart.yaml"), "apiVersion: v2\nname: child\nversion: 0.1.0\n");
    Files.writeString(child.resolve("templates/test.yaml"), """
        apiVersion: v1
        kind: Pod
        metadata:
          name: {{ .Release.Name }}-child-test
          annotations:
            "helm.sh/hook": test
        spec:
          containers:
            - name: t
              image: registry.example.com/t:1.0
              command: ["true"]
        """);
    Path parent = tmp.resolve("parent");
    Files.createDirectories(parent.resolve("templates"));
    Files.writeString(parent.resolve("Chart.yaml"), """
        apiVersion: v2
        name: parent
        version: 0.1.0
        dependencies:
          - name: child
            version: 0.1.0
            repository: file://../child
        """);
    Files.writeString(parent.resolve("templates/cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n");
    return parent;
  }

  @Test
  void aDependencyBuiltFirstRendersItsTemplatesAndTheChartIsLeftAsItIs() throws IOException {
    Path parent = parentWithLocalDependency(tmp);
    List<Seen> stubbed = lint(parent, Release.DEFAULT);
    only(stubbed, "Chart.yaml", "HL006", "rendered without dependency child (not in charts/; run helm dependency"
        + " build, or give --dependency-update)");
    assertTrue(stubbed.stream().noneMatch(s -> s.ruleId().equals("HL216")), stubbed.toString());

    List<Seen> built = lintWithDependencies(parent);
    only(built, parent.resolve("charts/child-0.1.0.tgz/child/templates/test.yaml").toString(), "HL216",
        "release-child-test");
    assertTrue(built.stream().noneMatch(s -> s.ruleId().equals("HL006")), built.toString());
    assertFalse(Files.exists(parent.resolve("charts")), "the chart's own charts/ is not written");
    assertFalse(Files.exists(parent.resolve("Chart.lock")), "nor its lock file");
  }

  /** The findings of a chart linted with its dependencies built first, each with the file it is in. */
  static List<Seen> lintWithDependencies(Path chart) throws IOException {
    List<Seen> built = new ArrayList<>();
    for (ChartLinter.ChartFile f : CHARTS.lint(chart, List.of(), List.of(ValuesSet.DEFAULTS), SetValues.NONE,
        Config.DEFAULT, Release.DEFAULT, true).files()) {
      f.result().findings().forEach(x -> built.add(new Seen(f.displayName(), x.range().start().line() + 1, 0,
          x.ruleId(), x.message(), List.of())));
    }
    return built;
  }

  @Test
  void aDependencyHelmCannotFetchIsSaidWithThePathBesideTheChart() throws IOException {
    Path parent = parentWithLocalDependency(tmp);
    Files.writeString(parent.resolve("Chart.yaml"), Files.readString(parent.resolve("Chart.yaml"))
        .replace("file://../child", "file://../gone"));
    ChartLinter.DependenciesFailed e = org.junit.jupiter.api.Assertions.assertThrows(
        ChartLinter.DependenciesFailed.class, () -> CHARTS.lint(parent, List.of(), List.of(ValuesSet.DEFAULTS),
            SetValues.NONE, Config.DEFAULT, Release.DEFAULT, true));
    assertTrue(e.getMessage().contains(tmp.resolve("gone").toString()), e.getMessage());
    assertFalse(e.getMessage().contains("hooklens-chart-"), e.getMessage());
  }

  private static List<Seen> lint(Path chart, Release release) throws IOException {
    List<Seen> out = new ArrayList<>();
    for (ChartLinter.ChartFile f : CHARTS.lint(chart, List.of(), List.of(ValuesSet.DEFAULTS), SetValues.NONE,
        Config.DEFAULT, release, false).files()) {
      String file = chart.relativize(Path.of(f.displayName())).toString();
      for (Finding x : f.result().findings()) {
        out.add(new Seen(file, x.range().start().line() + 1, x.range().start().column() + 1, x.ruleId(),
            x.message(), f.valuesSets().get(x)));
      }
    }
    return out;
  }

  private Path copyOf(Path chart) throws IOException {
    Path target = tmp.resolve(chart.getFileName().toString());
    try (var files = Files.walk(chart)) {
      for (Path p : files.toList()) {
        Path t = target.resolve(chart.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(t);
        } else {
          Files.copy(p, t);
        }
      }
    }
    return target;
  }
}
