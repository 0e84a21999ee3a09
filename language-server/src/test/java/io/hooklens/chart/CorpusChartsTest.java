package io.hooklens.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.TestPaths;
import io.hooklens.core.engine.Config;
import io.hooklens.core.engine.Finding;
import io.hooklens.core.engine.Linter;
import io.hooklens.rules.BuiltInRules;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Renders every chart of the shared corpus with every values set it has: 100 charts, about 400
 * renderings, 10 to 20 seconds. Nothing may throw and no rule may fail; a chart Helm refuses (mostly for
 * dependencies not vendored into charts/) must be an HL005 finding with Helm's message. 58 charts render
 * with at least one values set.
 */
class CorpusChartsTest {
  private static final ChartLinter CHARTS = new ChartLinter(new Linter(BuiltInRules.registry()));

  @Test
  void everyCorpusChartRendersOrReportsHelmsError() throws IOException {
    List<Path> charts;
    try (Stream<Path> dirs = Files.list(TestPaths.corpus().resolve("charts"))) {
      charts = dirs.filter(ChartLinter::isChart).sorted().toList();
    }
    assertTrue(charts.size() >= 100, "the chart corpus is there");
    List<String> problems = new ArrayList<>();
    int rendered = 0;
    for (Path chart : charts) {
      List<ValuesSet> sets = ChartLinter.valuesSets(chart, List.of());
      List<ChartLinter.ChartFile> files;
      try {
        files = CHARTS.lint(chart, sets, Map.of(), Config.DEFAULT);
      } catch (IOException | RuntimeException e) {
        problems.add(chart.getFileName() + ": " + e);
        continue;
      }
      assertEquals(chart.resolve("Chart.yaml").toString(), files.get(0).displayName());
      int failedSets = 0;
      for (ChartLinter.ChartFile f : files) {
        f.result().failures().forEach(x -> problems.add(f.displayName() + ": rule " + x.ruleId() + ": " + x.error()));
        for (Finding x : f.result().findings()) {
          if (x.ruleId().equals("HL005")) {
            failedSets = Math.max(failedSets, f.valuesSets().get(x).size());
            assertFalse(x.message().endsWith(": "), "Helm's message is there: " + x.message());
          }
        }
      }
      if (failedSets < sets.size()) {
        rendered++;
      }
    }
    assertEquals(List.of(), problems);
    assertTrue(rendered >= 55, "most corpus charts render with at least one values set, got " + rendered);
  }
}
