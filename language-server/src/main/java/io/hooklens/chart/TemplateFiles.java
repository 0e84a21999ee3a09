package io.hooklens.chart;

import io.hooklens.core.model.HookDocument;
import io.hooklens.core.yaml.ParsedFile;
import io.hooklens.core.yaml.SourceText;
import io.hooklens.core.yaml.TemplateMask;
import io.hooklens.core.yaml.YamlReader;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The chart files that rendered documents are reported in, each read once as written: a template with
 * its actions masked, so that positions in it can be found by following YAML paths.
 */
final class TemplateFiles {
  /** A chart file findings are reported in, with its text as written for code frames. */
  record TemplateFile(String displayName, HookDocument document) {}

  private final ChartCopy copy;
  private final YamlReader reader = new YamlReader();
  private final Map<String, TemplateFile> files = new TreeMap<>();
  private final Map<String, TemplateFile> bySource = new HashMap<>();

  TemplateFiles(ChartCopy copy) {
    this.copy = copy;
  }

  /** Every file so far, by name. */
  Map<String, TemplateFile> files() {
    return files;
  }

  /** The file of that name, made from the document when it is new. */
  TemplateFile file(String displayName, HookDocument document) {
    return files.computeIfAbsent(displayName, n -> new TemplateFile(n, document));
  }

  /** The template a section came from, read with its actions masked; the section itself when unknown. */
  TemplateFile template(RenderedChart.Section s, SourceText rendered) throws IOException {
    TemplateFile known = bySource.get(s.source());
    if (known != null) {
      return known;
    }
    ChartCopy.Origin o = copy.source(s.source());
    String name;
    String text;
    if (o != null) {
      name = o.displayName();
      text = o.text();
    } else {
      // A document whose template cannot be found is reported as Helm rendered it.
      name = copy.displayName(s.source().substring(s.source().indexOf('/') + 1));
      StringBuilder sb = new StringBuilder();
      for (int l = s.startLine(); l < s.endLine(); l++) {
        sb.append(rendered.line(l)).append('\n');
      }
      text = sb.toString();
    }
    TemplateFile t = files.get(name);
    if (t == null) {
      SourceText source = new SourceText(text);
      boolean templated = TemplateMask.needsMask(text);
      TemplateMask.Result mask = TemplateMask.maskAndTrack(text);
      ParsedFile masked = reader.read(templated ? new SourceText(mask.text()) : source, false);
      t = file(name, HookDocument.of(name,
          new ParsedFile(source, masked.documents(), List.of(), templated, mask.hiddenOutputLines())));
    }
    bySource.put(s.source(), t);
    return t;
  }
}
