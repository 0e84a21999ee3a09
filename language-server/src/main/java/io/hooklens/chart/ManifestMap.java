package io.hooklens.chart;

import io.hooklens.chart.TemplateFiles.TemplateFile;
import io.hooklens.core.yaml.ParsedFile;
import io.hooklens.core.yaml.Range;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/** The way back from places in one rendering of a chart to the chart files they come from. */
final class ManifestMap {
  private final RenderedChart chart;
  private final Map<RenderedChart.Section, SourceMapper> mappers = new HashMap<>();
  private final Map<RenderedChart.Section, TemplateFile> templates = new HashMap<>();

  ManifestMap(ParsedFile rendered, TemplateFiles files) throws IOException {
    this.chart = RenderedChart.of(rendered);
    for (RenderedChart.Section s : chart.sections()) {
      TemplateFile t = files.template(s, rendered.source());
      templates.put(s, t);
      mappers.put(s, new SourceMapper(s, rendered.source(), t.document()));
    }
  }

  /** The section holding a rendered line, or null before Helm's first {@code # Source:} header. */
  RenderedChart.Section section(int line) {
    return chart.at(line);
  }

  SourceMapper mapper(RenderedChart.Section s) {
    return mappers.get(s);
  }

  TemplateFile template(RenderedChart.Section s) {
    return templates.get(s);
  }

  /** The chart file and range a rendered range comes from, or null before the first header. */
  ChartLinter.Place place(Range rendered) {
    RenderedChart.Section s = section(rendered.start().line());
    return s == null ? null : new ChartLinter.Place(template(s).displayName(), mapper(s).map(rendered).range());
  }
}
