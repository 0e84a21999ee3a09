package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hooklens.TestPaths;
import io.hooklens.corpus.Corpus;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The 100 real public charts of {@code HOOKLENS_CORPUS}, about 400 renderings. */
@Tag("slow")
class SharedCorpusChartsTest extends CorpusChartChecks {
  @Override
  Corpus corpus() {
    return Corpus.shared();
  }

  @Override
  Map<String, String> refuseTheirDefaults() {
    return Map.of(
        // `required` and `fail`: the authors refuse the defaults on purpose until a value is given, and a
        // placeholder does not do (then 'mode' must be one of three), or the message names no value.
        "open-telemetry__opentelemetry-collector", "'image.repository' must be set",
        "temporalio__temporal", "No valid driver configured for default store",
        // A Helm 2 chart: .Release.Time does not exist in Helm 3.
        "helm__sumokube", "<.Release.Time.Seconds>: nil pointer",
        // The corpus keeps no .py files, and hub/configmap.yaml renders files/hub/* into its data.
        "jupyterhub__jupyterhub", "YAML parse error on jupyterhub/templates/hub/configmap.yaml",
        // Rendered without the bitnami common library, whose named templates render to nothing: an empty data key,
        // and an empty Kubernetes version for semverCompare.
        "bitnami__metallb", "did not find expected key (rendered without dependency common",
        "bitnami__rabbitmq", "error calling semverCompare: invalid semantic version (rendered without dependency common");
  }

  @Override
  int renderWithDefaults() {
    return 93;
  }

  @Override
  int minRendered() {
    return 87;
  }

  @Override
  int minCharts() {
    return 100;
  }

  /**
   * INDEX.md case 1: with persistence, loki-distributed's memcached containers sleep 60s in preStop,
   * and the grace period from values.yaml is 30s.
   */
  @Test
  void lokiDistributedMemcachedPreStopOutlastsTheGracePeriodWithPersistence() throws IOException {
    Path values = TestPaths.testResources().resolve("corpus/shared/loki-distributed-memcached-persistence-values.yaml");
    Linted l = lint(charts.resolve("grafana__loki-distributed"), "--values-set", values.toString());
    assertEquals(ExitCodes.CLEAN, l.run().exit(), l.run().err());
    List<String> found = l.findings().stream().filter(f -> f.get("rule").asText().equals("HL401"))
        .map(this::snapshotLine).toList();
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
