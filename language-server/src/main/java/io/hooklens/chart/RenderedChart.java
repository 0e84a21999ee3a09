package io.hooklens.chart;

import io.hooklens.core.yaml.ParsedFile;
import io.hooklens.core.yaml.SourceText;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YamlDocument;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Helm's rendered output cut into its documents, each under the {@code # Source:} header that names
 * the template it came from. Helm writes one YAML document per section.
 */
final class RenderedChart {
  private static final String HEADER = "# Source: ";

  /**
   * One rendered document.
   *
   * @param source the template path Helm names, starting with the chart's name
   * @param startLine the first line (the {@code ---} before the header), inclusive
   * @param endLine the first line of the next section, or the line count
   * @param document the YAML document read from these lines, or null
   * @param kind the document's literal {@code kind}, or null
   * @param ordinal how many earlier sections have the same source and kind
   */
  record Section(String source, int startLine, int endLine, YamlDocument document, String kind, int ordinal) {}

  private final List<Section> sections;

  private RenderedChart(List<Section> sections) {
    this.sections = sections;
  }

  static RenderedChart of(ParsedFile rendered) {
    SourceText text = rendered.source();
    List<Integer> starts = new ArrayList<>();
    List<String> sources = new ArrayList<>();
    for (int line = 0; line < text.lineCount(); line++) {
      String l = text.line(line);
      if (l.startsWith(HEADER)) {
        starts.add(line > 0 && text.line(line - 1).strip().equals("---") ? line - 1 : line);
        sources.add(l.substring(HEADER.length()).strip());
      }
    }
    List<YamlDocument> docs = rendered.documents();
    Map<String, Integer> seen = new HashMap<>();
    List<Section> out = new ArrayList<>();
    int d = 0;
    for (int i = 0; i < starts.size(); i++) {
      int start = starts.get(i);
      int end = i + 1 < starts.size() ? starts.get(i + 1) : text.lineCount();
      while (d < docs.size() && docs.get(d).range().start().line() < start) {
        d++;
      }
      YamlDocument doc = d < docs.size() && docs.get(d).range().start().line() < end ? docs.get(d) : null;
      YMap root = doc == null || doc.root() == null ? null : doc.root().asMap();
      String kind = root == null ? null : root.string("kind");
      int ordinal = seen.merge(sources.get(i) + "\n" + kind, 1, Integer::sum) - 1;
      out.add(new Section(sources.get(i), start, end, doc, kind, ordinal));
    }
    return new RenderedChart(List.copyOf(out));
  }

  List<Section> sections() {
    return sections;
  }

  /** The section holding a line, or null before the first header. */
  Section at(int line) {
    int lo = 0;
    int hi = sections.size() - 1;
    Section found = null;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (sections.get(mid).startLine() <= line) {
        found = sections.get(mid);
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }
}
