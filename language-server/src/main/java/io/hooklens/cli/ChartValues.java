package io.hooklens.cli;

import io.hooklens.app.ChartLint;
import io.hooklens.app.ConfigResolver;
import io.hooklens.core.engine.Config;
import io.hooklens.rules.BuiltInRules;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code --values} and the {@code --set} options, as Helm reads them, for every command that renders charts; and
 * the chart rendered once with them, for commands that work on a chart's manifests ({@code hooks}, {@code run});
 * a picocli mixin.
 */
final class ChartValues {
  private static final String CHART_YAML = "Chart.yaml";

  @Option(names = "--values", paramLabel = "FILE",
      description = "For charts: a values file on top of values.yaml, as helm -f does, for every rendering "
          + "(repeatable; later files win).")
  List<Path> valuesFiles = new ArrayList<>();

  @Mixin
  SetOptions setValues;

  /** Whether values were given, which only a chart takes. */
  boolean given() {
    return !valuesFiles.isEmpty() || setValues.given();
  }

  /** Whether every values file exists and Helm would read every --set argument; if not, says why on one line. */
  boolean valid(PrintWriter err) {
    return existing("--values", valuesFiles, err) && setValues.valid(err);
  }

  /** Whether each of an option's values files exists; if not, says which does not. */
  static boolean existing(String option, List<Path> files, PrintWriter err) {
    for (Path v : files) {
      if (!Files.isRegularFile(v)) {
        err.println("hooklens: " + option + " " + v + ": no such file");
        return false;
      }
    }
    return true;
  }

  /** The values, as the shared chart rendering takes them. */
  ChartLint.Values values() {
    return new ChartLint.Values(valuesFiles, List.of(), setValues.values());
  }

  /**
   * Renders a chart as {@code helm template} does, with the values and its configuration's {@code helm.set}, for
   * the target Kubernetes version of its configuration; empty after saying why on standard error.
   */
  Optional<ChartLint.Manifests> render(Path chart, PrintWriter err)
      throws IOException, ConfigResolver.ConfigException {
    // Helm's worker starts while the configuration and values are read.
    ChartLint.prepare();
    if (!valid(err)) {
      return Optional.empty();
    }
    Config config = new ConfigResolver(BuiltInRules.registry(), null).forFile(chart.resolve(CHART_YAML)).config();
    try {
      return Optional.of(ChartLint.manifests(chart, values(), config));
    } catch (IOException e) {
      err.println("hooklens: " + e.getMessage());
      return Optional.empty();
    }
  }
}
