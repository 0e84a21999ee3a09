package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hooklens.TestPaths;
import io.hooklens.chart.ChartLinter;
import io.hooklens.chart.ValuesSet;
import io.hooklens.core.yaml.ParsedFile;
import io.hooklens.core.yaml.SourceText;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YSeq;
import io.hooklens.core.yaml.YamlReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Lints every chart of the shared corpus as {@code hooklens lint CHART} does, in-process: rendered with
 * every values set it has, or template by template when no values set renders. 100 charts, about 400
 * renderings. Nothing may fail inside Hooklens, and the findings must equal the reviewed snapshot
 * {@code src/test/resources/corpus/charts.snapshot}; after a deliberate change, regenerate it with
 * {@code -Dhooklens.updateSnapshots=true} and review the diff.
 *
 * <p>A chart must render with its own defaults (no HL005 for {@code values.yaml}) when all of this holds:
 * it is an application chart (not {@code type: library}); its {@code Chart.yaml} is YAML; it has a
 * {@code values.yaml}; and every dependency its {@code Chart.yaml} (or, for apiVersion v1,
 * {@code requirements.yaml}) declares is vendored in {@code charts/}, as a folder whose {@code Chart.yaml}
 * has that name or as a {@code NAME-*.tgz} archive, since Helm refuses a chart with any missing dependency,
 * enabled or not. The charts in {@link #REFUSE_THEIR_DEFAULTS} meet this and still fail for a reason of
 * their own, which the test checks is still the reason.
 */
class CorpusChartsTest {
  /**
   * Charts that meet the criterion above and that Helm still refuses with their defaults, with a piece of
   * Helm's message that shows why.
   */
  private static final Map<String, String> REFUSE_THEIR_DEFAULTS = Map.of(
      // `required` and `fail`: the authors refuse the defaults on purpose until a value is given.
      "helm__stolon", "A valid .Values.superuserPassword entry is required!",
      "open-telemetry__opentelemetry-collector", "'image.repository' must be set",
      "temporalio__temporal", "No valid driver configured for default store",
      // A Helm 2 chart: .Release.Time does not exist in Helm 3.
      "helm__sumokube", "<.Release.Time.Seconds>: nil pointer",
      // The corpus keeps no .py files, and hub/configmap.yaml renders files/hub/* into its data.
      "jupyterhub__jupyterhub", "YAML parse error on jupyterhub/templates/hub/configmap.yaml");

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path SNAPSHOT =
      TestPaths.repoRoot().resolve("language-server/src/test/resources/corpus/charts.snapshot");

  /** What the CLI said about one chart. */
  private record Linted(Path chart, CliRun run, List<JsonNode> findings) {}

  private static Path charts;
  private static final Map<String, Linted> LINTED = new LinkedHashMap<>();

  @BeforeAll
  static void lintEveryChart() throws IOException {
    charts = TestPaths.corpus().resolve("charts");
    try (Stream<Path> dirs = Files.list(charts)) {
      for (Path chart : dirs.filter(ChartLinter::isChart).sorted().toList()) {
        LINTED.put(chart.getFileName().toString(), lint(chart));
      }
    }
  }

  private static Linted lint(Path chart, String... extra) throws IOException {
    List<String> args = new ArrayList<>(List.of("lint", "--format", "json", "--fail-on", "never"));
    args.addAll(List.of(extra));
    args.add(chart.toString());
    CliRun run = CliRun.of(args.toArray(String[]::new));
    List<JsonNode> findings = new ArrayList<>();
    if (run.exit() == ExitCodes.CLEAN) {
      JSON.readTree(run.out()).get("findings").forEach(findings::add);
    }
    return new Linted(chart, run, findings);
  }

  @Test
  void everyChartLintsWithoutInternalErrors() {
    assertTrue(LINTED.size() >= 100, "the chart corpus is there");
    List<String> problems = new ArrayList<>();
    for (Linted l : LINTED.values()) {
      // Exit 3 and a message on standard error are how the CLI reports a failing rule or an exception.
      if (l.run().exit() != ExitCodes.CLEAN || !l.run().err().isEmpty()) {
        problems.add(l.chart().getFileName() + ": exit " + l.run().exit() + ": " + l.run().err());
      }
    }
    assertEquals(List.of(), problems);
  }

  @Test
  void findingsMatchTheReviewedSnapshot() throws IOException {
    StringBuilder sb = new StringBuilder();
    for (Linted l : LINTED.values()) {
      for (JsonNode f : l.findings()) {
        sb.append(snapshotLine(f)).append('\n');
      }
    }
    String actual = sb.toString();
    if (Boolean.getBoolean("hooklens.updateSnapshots")) {
      Files.writeString(SNAPSHOT, actual, StandardCharsets.UTF_8);
    }
    String expected = Files.isRegularFile(SNAPSHOT) ? Files.readString(SNAPSHOT, StandardCharsets.UTF_8) : "";
    assertEquals(expected, actual, "findings on corpus/charts changed; review, then update " + SNAPSHOT);
  }

  /** {@code chart-relative-path:line:col RULE severity message [values: ...]}, the path from corpus/charts. */
  private static String snapshotLine(JsonNode f) {
    StringBuilder sb = new StringBuilder();
    sb.append(charts.relativize(Path.of(f.get("file").asText()))).append(':')
        .append(f.at("/range/start/line").asInt()).append(':').append(f.at("/range/start/column").asInt())
        .append(' ').append(f.get("rule").asText()).append(' ').append(f.get("severity").asText())
        .append(' ').append(f.get("message").asText());
    if (f.has("values")) {
      List<String> labels = new ArrayList<>();
      f.get("values").forEach(v -> labels.add(v.asText()));
      sb.append(" [values: ").append(String.join(", ", labels)).append(']');
    }
    return sb.toString();
  }

  @Test
  void chartsThatCanRenderWithTheirDefaultsDo() throws IOException {
    List<String> expected = new ArrayList<>();
    List<String> wrong = new ArrayList<>();
    for (Linted l : LINTED.values()) {
      String name = l.chart().getFileName().toString();
      if (!canRenderWithDefaults(l.chart())) {
        assertFalse(REFUSE_THEIR_DEFAULTS.containsKey(name), name + " is not expected to render: no exception needed");
        continue;
      }
      expected.add(name);
      List<String> failures = l.findings().stream().filter(CorpusChartsTest::failsWithDefaults)
          .map(f -> f.get("message").asText()).toList();
      String reason = REFUSE_THEIR_DEFAULTS.get(name);
      if (reason == null ? !failures.isEmpty() : failures.stream().noneMatch(m -> m.contains(reason))) {
        wrong.add(name + ": " + (reason == null ? "" : "expected \"" + reason + "\", got ") + failures);
      }
    }
    assertEquals(List.of(), wrong);
    assertEquals(60, expected.size(), "charts the criterion expects to render, exceptions included: " + expected);
  }

  private static boolean failsWithDefaults(JsonNode f) {
    if (!f.get("rule").asText().equals("HL005")) {
      return false;
    }
    for (JsonNode v : f.get("values")) {
      if (v.asText().equals(ValuesSet.DEFAULTS.label())) {
        return true;
      }
    }
    return false;
  }

  /** The criterion in the class comment. */
  private static boolean canRenderWithDefaults(Path chart) throws IOException {
    ParsedFile chartYaml = read(chart.resolve("Chart.yaml"));
    YMap meta = root(chartYaml);
    if (!chartYaml.problems().isEmpty() || meta == null || "library".equals(meta.string("type"))
        || !Files.isRegularFile(chart.resolve("values.yaml"))) {
      return false;
    }
    Path requirements = chart.resolve("requirements.yaml");
    YMap declared = meta.seq("dependencies") == null && Files.isRegularFile(requirements)
        ? root(read(requirements)) : meta;
    YSeq deps = declared == null ? null : declared.seq("dependencies");
    if (deps == null) {
      return true;
    }
    Set<String> vendored = vendored(chart.resolve("charts"));
    for (YNode d : deps.items()) {
      YMap dep = d.asMap();
      if (dep == null || !vendored.contains(dep.string("name"))) {
        return false;
      }
    }
    return true;
  }

  /** Names of the charts in a charts/ folder: folders by their Chart.yaml's name, archives by file name. */
  private static Set<String> vendored(Path dir) throws IOException {
    Set<String> names = new HashSet<>();
    if (!Files.isDirectory(dir)) {
      return names;
    }
    try (Stream<Path> entries = Files.list(dir)) {
      for (Path p : entries.toList()) {
        String file = p.getFileName().toString();
        YMap sub = Files.isRegularFile(p.resolve("Chart.yaml")) ? root(read(p.resolve("Chart.yaml"))) : null;
        if (sub != null && sub.string("name") != null) {
          names.add(sub.string("name"));
        } else if (file.endsWith(".tgz") && file.lastIndexOf('-') > 0) {
          names.add(file.substring(0, file.lastIndexOf('-')));
        }
      }
    }
    return names;
  }

  private static ParsedFile read(Path file) throws IOException {
    return new YamlReader().read(new SourceText(Files.readString(file, StandardCharsets.UTF_8)), false);
  }

  private static YMap root(ParsedFile parsed) {
    return parsed.documents().isEmpty() || parsed.documents().get(0).root() == null ? null
        : parsed.documents().get(0).root().asMap();
  }

  @Test
  void helmsMessageIsInEveryRenderFailureAndMostChartsRender() throws IOException {
    int rendered = 0;
    for (Linted l : LINTED.values()) {
      Set<String> failed = new HashSet<>();
      for (JsonNode f : l.findings()) {
        if (f.get("rule").asText().equals("HL005")) {
          assertFalse(f.get("message").asText().endsWith(": "), "Helm's message is there: " + f);
          f.get("values").forEach(v -> failed.add(v.asText()));
        }
      }
      if (failed.size() < ChartLinter.valuesSets(l.chart(), List.of()).size()) {
        rendered++;
      }
    }
    assertTrue(rendered >= 55, "most corpus charts render with at least one values set, got " + rendered);
  }

  /**
   * INDEX.md case 1: with persistence, loki-distributed's memcached containers sleep 60s in preStop,
   * and the grace period from values.yaml is 30s.
   */
  @Test
  void lokiDistributedMemcachedPreStopOutlastsTheGracePeriodWithPersistence() throws IOException {
    Path values = TestPaths.repoRoot()
        .resolve("language-server/src/test/resources/corpus/loki-distributed-memcached-persistence-values.yaml");
    Linted l = lint(charts.resolve("grafana__loki-distributed"), "--values", values.toString());
    assertEquals(ExitCodes.CLEAN, l.run().exit(), l.run().err());
    List<String> found = l.findings().stream().filter(f -> f.get("rule").asText().equals("HL401"))
        .map(CorpusChartsTest::snapshotLine).toList();
    List<String> expected = new ArrayList<>();
    for (String component : List.of("chunks", "frontend", "index-queries", "index-writes")) {
      expected.add("grafana__loki-distributed/templates/memcached-" + component + "/statefulset-memcached-" + component
          + ".yaml:60:13 HL401 warning preStop of container \"memcached\" needs at least 60s but the grace period is "
          + "30s; the grace period counts from before preStop, so the hook is cut off and the app gets only the "
          + "kubelet's 2-second minimum after SIGTERM. Set terminationGracePeriodSeconds to at least 75s. [values: "
          + values + "]");
    }
    assertEquals(expected, found);
  }
}
