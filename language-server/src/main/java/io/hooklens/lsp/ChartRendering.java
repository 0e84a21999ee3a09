package io.hooklens.lsp;

import io.hooklens.core.engine.Config;
import io.hooklens.core.engine.Finding;
import io.hooklens.core.engine.LintResult;
import io.hooklens.core.yaml.ParsedFile;
import io.hooklens.core.yaml.Range;
import io.hooklens.run.Origin;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * What the language server needs of Helm: a chart rendered and linted as {@code hooklens lint CHART} does it.
 * Whoever launches the server supplies it (the CLI passes real Helm), so the editor layer never links Helm and
 * its native library itself.
 */
public interface ChartRendering {
  /** One chart file's findings from a render, each with the labels of the values sets that produce it. */
  record ChartFile(Path path, LintResult result, Map<Finding, List<String>> valuesSets) {}

  /** A whole render: the files with findings, and how many values sets it took. */
  record Render(List<ChartFile> files, int valuesSets) {}

  /** A chart's manifests from one render, and where each place in them comes from in the chart. */
  record Manifests(ParsedFile parsed, Function<Range, Origin> origins) {}

  /** Why charts cannot be rendered in this process, or empty when they can. */
  Optional<String> unavailable();

  /** Whether a directory is a chart. */
  boolean isChart(Path dir);

  /** Whether a chart is a library chart, which Helm never renders on its own. */
  boolean isLibrary(Path dir);

  /** Renders a chart as saved, with its values sets and those of the configuration, and lints the result. */
  Render render(Path chart, Config config) throws IOException;

  /**
   * Renders a chart once, as {@code helm template} does with its values.yaml and the configuration's
   * {@code helm.set} values, for a run of its hooks.
   *
   * @throws IOException when the chart cannot be read, or Helm refuses it (its message)
   */
  Manifests manifests(Path chart, Config config) throws IOException;

  /**
   * The chart a file belongs to: the nearest directory above it with a Chart.yaml, or the chart whose
   * {@code charts/} holds that one, since a subchart is rendered with its parent's values.
   */
  default Optional<Path> chartOf(Path file) {
    Path dir = file.getParent();
    while (dir != null && !isChart(dir)) {
      dir = dir.getParent();
    }
    if (dir == null) {
      return Optional.empty();
    }
    while (dir.getParent() != null && dir.getParent().getFileName() != null
        && dir.getParent().getFileName().toString().equals("charts") && dir.getParent().getParent() != null
        && isChart(dir.getParent().getParent())) {
      dir = dir.getParent().getParent();
    }
    return Optional.of(dir);
  }
}
