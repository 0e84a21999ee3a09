package io.hooklens.bench;

import com.marcnuri.helm.Helm;
import io.hooklens.chart.ChartLinter;
import io.hooklens.chart.SetValues;
import io.hooklens.chart.ValuesSet;
import io.hooklens.core.engine.Config;
import io.hooklens.core.engine.Linter;
import io.hooklens.core.engine.Version;
import io.hooklens.rules.BuiltInRules;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What linting a chart costs against rendering it with helm-java alone, measured in the same run on
 * the same charts with their values.yaml. {@code renderOnly}, the baseline, is
 * {@code new Helm(chart).template()...call()} on each chart as it is; {@code lint} is
 * {@link ChartLinter#lint} with the same values set: the copy with the hook and lookup rewrites, the
 * same render, reading the output, every rule, and mapping each finding back to its template. Each
 * operation processes the whole set once, so the ratio of the two times is the cost of linting; run
 * with {@code -p charts=NAME} for one chart.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 4)
@Measurement(iterations = 5, time = 4)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class ChartLintCost {
  /** Corpus charts that render with their defaults and use no lookup: 14 to 102 templates, 60 to 590 KB. */
  @Param("prometheus-community__prometheus-pushgateway,elastic__kibana,nginx__nginx-gateway-fabric,"
      + "kubernetes__ingress-nginx,argoproj__argo-workflows,grafana__loki-distributed")
  public String charts;

  private final List<Path> dirs = new ArrayList<>();
  private ChartLinter linter;
  private String kubeVersion;

  @Setup
  public void load() throws IOException {
    Path corpus = Path.of(System.getProperty("hooklens.corpus", "../shared/corpus"));
    linter = new ChartLinter(new Linter(BuiltInRules.registry()));
    Version k = Config.DEFAULT.targets().kubernetes();
    kubeVersion = "v" + k.major() + "." + k.minor() + ".0";
    for (String name : charts.split(",")) {
      Path dir = corpus.resolve("charts").resolve(name.strip());
      if (!ChartLinter.isChart(dir) || !Files.isRegularFile(dir.resolve("values.yaml"))) {
        throw new IllegalStateException("no chart with a values.yaml at " + dir + "; set -Dhooklens.corpus=DIR");
      }
      dirs.add(dir);
    }
    // Both operations must render: a chart Helm refuses would compare an error with an error.
    for (ChartLinter.ChartFile f : lint()) {
      if (f.result().findings().stream().anyMatch(x -> x.ruleId().equals("HL005"))) {
        throw new IllegalStateException(f.displayName() + ": Helm cannot render it with its defaults");
      }
    }
  }

  @Benchmark
  public List<String> renderOnly() {
    List<String> out = new ArrayList<>();
    for (Path dir : dirs) {
      out.add(new Helm(dir).template()
          .withName("release")
          .withNamespace("default")
          .withKubeVersion(kubeVersion)
          .call());
    }
    return out;
  }

  @Benchmark
  public List<ChartLinter.ChartFile> lint() throws IOException {
    List<ChartLinter.ChartFile> out = new ArrayList<>();
    for (Path dir : dirs) {
      out.addAll(linter.lint(dir, List.of(), List.of(ValuesSet.DEFAULTS), SetValues.NONE, Config.DEFAULT).files());
    }
    return out;
  }
}
