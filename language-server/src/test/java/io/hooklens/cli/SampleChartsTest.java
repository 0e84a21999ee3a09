package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.corpus.Corpus;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The repository's hand-written sample charts: an app, one that needs a value, an umbrella, a library. */
class SampleChartsTest extends CorpusChartChecks {
  @Override
  Corpus corpus() {
    return Corpus.samples();
  }

  @Override
  Map<String, String> refuseTheirDefaults() {
    return Map.of("ledger-service", "database.host is required");
  }

  @Override
  int renderWithDefaults() {
    return 3;
  }

  @Override
  int minRendered() {
    return 3;
  }

  @Override
  int minCharts() {
    return 4;
  }

  /** Mistakes that only a rendering with a values set shows, on the template line they come from. */
  @Test
  void findingsThatNeedAValuesSetAreFoundOnTheirTemplates() {
    List<String> lines = linted.values().stream().flatMap(l -> l.findings().stream()).map(this::snapshotLine)
        .toList();
    for (String expected : List.of(
        "storefront/templates/deployment.yaml:38:13 HL401 .* \\[values: ci/long-drain-values.yaml\\]",
        "ledger-service/templates/schema-migration-job.yaml:\\d+:\\d+ HL005 .*database.host is required.* "
            + "\\[values: values.yaml\\]",
        "ledger-service/templates/schema-migration-job.yaml:12:1 HL215 .* \\[values: ci/staging-values.yaml\\]",
        "shop-platform/charts/notifications/templates/sync-templates-job.yaml:9:21 HL225 .*")) {
      assertTrue(lines.stream().anyMatch(l -> l.matches(expected)), expected + " in\n" + String.join("\n", lines));
    }
  }
}
