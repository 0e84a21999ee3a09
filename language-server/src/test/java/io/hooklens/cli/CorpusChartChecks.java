package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hooklens.corpus.Corpus;
import io.hooklens.chart.ChartLinter;
import io.hooklens.chart.ValuesSet;
import io.hooklens.core.yaml.ParsedFile;
import io.hooklens.core.yaml.SourceText;
import io.hooklens.core.yaml.YMap;
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
import org.junit.jupiter.api.TestInstance;

/**
 * Lints every chart of a corpus as {@code hooklens lint CHART} does, in-process: rendered with every values
 * set it has, or template by template when no values set renders. Nothing may fail inside Hooklens, and the
 * findings must equal the corpus's reviewed {@code charts.snapshot}.
 *
 * <p>A chart must render with its own defaults (no HL005 for {@code values.yaml}) when all of this holds:
 * it is an application chart (not {@code type: library}); its {@code Chart.yaml} is YAML; and it has a
 * {@code values.yaml}. A dependency missing from {@code charts/} does not stop it, since it is left out (an
 * HL006 note). The charts in {@link #refuseTheirDefaults()} meet this and still fail for a reason of their own,
 * which the test checks is still the reason.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class CorpusChartChecks {
  abstract Corpus corpus();

  /**
   * Charts that meet the criterion above and that Helm still refuses with their defaults, with a piece of
   * Helm's message that shows why.
   */
  abstract Map<String, String> refuseTheirDefaults();

  /** How many charts the criterion expects to render, exceptions included. */
  abstract int renderWithDefaults();

  /** At least this many charts render with at least one values set. */
  abstract int minRendered();

  /** At least this many charts, so that a missing folder cannot pass. */
  abstract int minCharts();

  private static final ObjectMapper JSON = new ObjectMapper();

  /** What the CLI said about one chart. */
  record Linted(Path chart, CliRun run, List<JsonNode> findings) {}

  Path charts;
  final Map<String, Linted> linted = new LinkedHashMap<>();

  @BeforeAll
  void lintEveryChart() throws IOException {
    charts = corpus().part("charts");
    try (Stream<Path> dirs = Files.list(charts)) {
      for (Path chart : dirs.filter(ChartLinter::isChart).sorted().toList()) {
        linted.put(chart.getFileName().toString(), lint(chart));
      }
    }
  }

  static Linted lint(Path chart, String... extra) throws IOException {
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
    assertTrue(linted.size() >= minCharts(), "the chart corpus is there: " + linted.size() + " charts");
    List<String> problems = new ArrayList<>();
    for (Linted l : linted.values()) {
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
    for (Linted l : linted.values()) {
      for (JsonNode f : l.findings()) {
        sb.append(snapshotLine(f)).append('\n');
      }
    }
    String actual = sb.toString();
    assertEquals(corpus().expected("charts", actual), actual,
        "findings on " + corpus().name() + "/charts changed; review, then update " + corpus().snapshot("charts"));
  }

  /** {@code chart-relative-path:line:col RULE severity message [values: ...]}, the path from the charts folder. */
  String snapshotLine(JsonNode f) {
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
    for (Linted l : linted.values()) {
      String name = l.chart().getFileName().toString();
      if (!canRenderWithDefaults(l.chart())) {
        assertFalse(refuseTheirDefaults().containsKey(name), name + " is not expected to render: no exception needed");
        continue;
      }
      expected.add(name);
      // A values set Helm refused and then rendered with placeholders reached the rules.
      boolean placeholders = l.findings().stream().anyMatch(f -> f.get("rule").asText().equals("HL006")
          && f.get("message").asText().contains("placeholder") && withDefaults(f));
      List<String> failures = placeholders ? List.of() : l.findings().stream().filter(CorpusChartChecks::failsWithDefaults)
          .map(f -> f.get("message").asText()).toList();
      String reason = refuseTheirDefaults().get(name);
      if (reason == null ? !failures.isEmpty() : failures.stream().noneMatch(m -> m.contains(reason))) {
        wrong.add(name + ": " + (reason == null ? "" : "expected \"" + reason + "\", got ") + failures);
      }
    }
    assertEquals(List.of(), wrong);
    assertEquals(renderWithDefaults(), expected.size(), "charts the criterion expects to render, exceptions included: " + expected);
  }

  private static boolean failsWithDefaults(JsonNode f) {
    return f.get("rule").asText().equals("HL005") && withDefaults(f);
  }

  private static boolean withDefaults(JsonNode f) {
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
    return chartYaml.problems().isEmpty() && meta != null && !"library".equals(meta.string("type"))
        && Files.isRegularFile(chart.resolve("values.yaml"));
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
    for (Linted l : linted.values()) {
      Set<String> failed = new HashSet<>();
      Set<String> withPlaceholders = new HashSet<>();
      for (JsonNode f : l.findings()) {
        if (f.get("rule").asText().equals("HL005")) {
          assertFalse(f.get("message").asText().endsWith(": "), "Helm's message is there: " + f);
          f.get("values").forEach(v -> failed.add(v.asText()));
        } else if (f.get("rule").asText().equals("HL006") && f.get("message").asText().contains("placeholder")) {
          f.get("values").forEach(v -> withPlaceholders.add(v.asText()));
        }
      }
      // A values set Helm refused and then rendered with placeholders reached the rules.
      failed.removeAll(withPlaceholders);
      if (failed.size() < ChartLinter.valuesSets(l.chart(), List.of()).size()) {
        rendered++;
      }
    }
    assertTrue(rendered >= minRendered(), "charts render with at least one values set, got " + rendered);
  }
}
