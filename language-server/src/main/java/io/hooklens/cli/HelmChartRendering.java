package io.hooklens.cli;

import io.hooklens.chart.ChartLinter;
import io.hooklens.chart.SetValues;
import io.hooklens.chart.ValuesSet;
import io.hooklens.core.engine.Config;
import io.hooklens.core.engine.Linter;
import io.hooklens.core.engine.RuleRegistry;
import io.hooklens.lsp.ChartRendering;
import io.hooklens.run.Origin;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The language server's charts, rendered with real Helm exactly as {@code hooklens lint CHART} renders them. */
public final class HelmChartRendering implements ChartRendering {
  private final ChartLinter charts;

  public HelmChartRendering(RuleRegistry registry) {
    this.charts = new ChartLinter(new Linter(registry));
  }

  @Override
  public Optional<String> unavailable() {
    return ChartLinter.unavailable();
  }

  @Override
  public boolean isChart(Path dir) {
    return ChartLinter.isChart(dir);
  }

  @Override
  public boolean isLibrary(Path dir) {
    return ChartLinter.isLibrary(dir);
  }

  @Override
  public Render render(Path chart, Config config) throws IOException {
    List<ValuesSet> sets = ChartLinter.valuesSets(chart, List.of(), config.charts());
    List<ChartFile> files = new ArrayList<>();
    SetValues setValues = ChartLinter.setValues(config.charts(), SetValues.NONE);
    for (ChartLinter.ChartFile f : charts.lint(chart, List.of(), sets, setValues, config)) {
      files.add(new ChartFile(Path.of(f.displayName()).toAbsolutePath().normalize(), f.result(), f.valuesSets()));
    }
    return new Render(files, sets.size());
  }

  @Override
  public Manifests manifests(Path chart, Config config) throws IOException {
    ChartLinter.Rendering r = ChartLinter.render(chart, List.of(),
        ChartLinter.setValues(config.charts(), SetValues.NONE), config.targets().kubernetes());
    if (r instanceof ChartLinter.Refused refused) {
      throw new IOException("Helm cannot render " + chart + ": " + refused.message());
    }
    ChartLinter.Manifests m = (ChartLinter.Manifests) r;
    return new Manifests(m.parsed(), range -> {
      ChartLinter.Place place = m.place(range);
      return new Origin(place.file(), place.range().start());
    });
  }
}
