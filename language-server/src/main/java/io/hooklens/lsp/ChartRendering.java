package io.hooklens.lsp;

import io.hooklens.core.engine.Config;
import io.hooklens.core.engine.Finding;
import io.hooklens.core.engine.LintResult;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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

  /** Why charts cannot be rendered in this process, or empty when they can. */
  Optional<String> unavailable();

  /** Whether a directory is a chart. */
  boolean isChart(Path dir);

  /** Whether a chart is a library chart, which Helm never renders on its own. */
  boolean isLibrary(Path dir);

  /** Renders a chart as saved, with its values sets and those of the configuration, and lints the result. */
  Render render(Path chart, Config config) throws IOException;
}
