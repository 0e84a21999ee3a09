package io.hooklens.chart;

import io.hooklens.core.model.HookDocument;
import io.hooklens.core.yaml.Position;
import io.hooklens.core.yaml.Range;
import io.hooklens.core.yaml.SourceText;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YScalar;
import io.hooklens.core.yaml.YSeq;
import io.hooklens.core.yaml.YamlDocument;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * Maps a place in one rendered document back to the template it came from. The template is read
 * with its actions masked, so it has the same YAML structure wherever its text is literal: the place
 * is found by its path of keys and indexes in the rendered document (a list item by its {@code name}
 * when it has one, since conditionals and loops shift indexes), and the same path is followed in the
 * template as far as it exists there. A path that leaves the template's literal text (into an
 * {@code include} or {@code toYaml}) ends at the nearest key the template does write. A place outside
 * every node (a comment) is found by its line's text.
 */
final class SourceMapper {
  /**
   * A range in the template and the index of the template document it is in.
   *
   * @param unwritten the rendered nodes on the way to the place that the template does not write literally,
   *     or null when it writes the place itself or the place is outside every node
   */
  record Mapped(Range range, int document, Unwritten unwritten) {}

  /**
   * The end of a rendered path that an action wrote ({@code toYaml}, {@code include}): {@code nodes} from the
   * deepest one the template writes a key of (or the document's root) to the place, {@code keys.get(i)}
   * leading from {@code nodes.get(i)} to the next; the place is the last node, or its key when {@code onKey}.
   */
  record Unwritten(List<Object> keys, List<YNode> nodes, boolean onKey) {}

  /** How far a rendered path goes in the template: the place found there and how many keys it followed. */
  private record Followed(Range range, int matched) {}

  /** Where a range is in the rendered tree: the keys to it and the nodes along them. */
  private record Located(List<Object> keys, List<YNode> nodes, boolean onKey) {}

  private final RenderedChart.Section section;
  private final SourceText rendered;
  private final SourceText template;
  private final BitSet hiddenOutput;
  private final YamlDocument templateDoc;

  SourceMapper(RenderedChart.Section section, SourceText rendered, HookDocument template) {
    this.section = section;
    this.rendered = rendered;
    this.template = template.source();
    this.hiddenOutput = template.parsed().hiddenOutputLines();
    this.templateDoc = chooseDocument(section, template.parsed().documents());
  }

  /**
   * The template document a section came from: the one whose literal kind is the section's (the
   * n-th of them for the n-th such section of this template), else the first with content.
   */
  private static YamlDocument chooseDocument(RenderedChart.Section section, List<YamlDocument> docs) {
    List<YamlDocument> sameKind = new ArrayList<>();
    YamlDocument first = null;
    for (YamlDocument d : docs) {
      YMap root = d.root() == null ? null : d.root().asMap();
      if (root == null) {
        continue;
      }
      if (first == null) {
        first = d;
      }
      YScalar kind = root.scalar("kind");
      if (kind != null && !kind.isTemplated() && kind.value().equals(section.kind())) {
        sameKind.add(d);
      }
    }
    if (!sameKind.isEmpty()) {
      return sameKind.get(Math.min(section.ordinal(), sameKind.size() - 1));
    }
    return first != null ? first : docs.isEmpty() ? null : docs.get(0);
  }

  /** Whether a rendered range lies in this mapper's section. */
  boolean covers(Range range) {
    int line = range.start().line();
    return line >= section.startLine() && line < section.endLine();
  }

  Mapped map(Range range) {
    int document = templateDoc == null ? 0 : templateDoc.index();
    YNode renderedRoot = section.document() == null ? null : section.document().root();
    Located located = renderedRoot == null ? null : locate(renderedRoot, range);
    // A template document with no literal node (all of it written by actions) has no path to follow.
    boolean literal = templateDoc != null && templateDoc.root() != null
        && !(templateDoc.root() instanceof YScalar && isEmpty(templateDoc.root().range()));
    if (located == null) {
      return new Mapped(byLine(range), document, null);
    }
    if (!literal) {
      return new Mapped(byLine(range), document, unwritten(located, 0));
    }
    Followed f = follow(located);
    return new Mapped(f.range(), document, f.matched() == located.keys().size() ? null
        : unwritten(located, f.matched()));
  }

  private static Unwritten unwritten(Located located, int matched) {
    int to = located.nodes().size();
    if (matched >= to - 1) {
      return null;
    }
    return new Unwritten(located.keys().subList(matched, located.keys().size()), located.nodes().subList(matched, to),
        located.onKey());
  }

  private static Located locate(YNode root, Range range) {
    if (!root.range().equals(range) && !contains(root.range(), range.start())) {
      return null;
    }
    List<Object> keys = new ArrayList<>();
    List<YNode> nodes = new ArrayList<>(List.of(root));
    YNode node = root;
    while (!node.range().equals(range)) {
      YNode next = null;
      if (node instanceof YMap m) {
        for (YMap.Entry e : m.entries()) {
          if (e.key().range().equals(range) || contains(e.key().range(), range.start())) {
            keys.add(e.key().value());
            nodes.add(e.value());
            return new Located(keys, nodes, true);
          }
          if (e.value().range().equals(range) || contains(e.value().range(), range.start())) {
            keys.add(e.key().value());
            next = e.value();
            break;
          }
        }
      } else if (node instanceof YSeq s) {
        for (int i = 0; i < s.size() && next == null; i++) {
          YNode item = s.get(i);
          if (item.range().equals(range) || contains(item.range(), range.start())) {
            keys.add(i);
            next = item;
          }
        }
      }
      if (next == null) {
        // Between the entries or items of a collection: a comment or blank line, found by its text.
        return node instanceof YScalar ? new Located(keys, nodes, false) : null;
      }
      nodes.add(next);
      node = next;
    }
    return new Located(keys, nodes, false);
  }

  /** Follows the rendered path in the template as far as it exists there. */
  private Followed follow(Located located) {
    YNode t = templateDoc.root();
    YScalar lastKey = null;
    int matched = 0;
    for (int i = 0; i < located.keys().size(); i++) {
      Object key = located.keys().get(i);
      YNode next = null;
      YScalar nextKey = null;
      if (key instanceof String k && t instanceof YMap m) {
        YMap.Entry e = m.entry(k);
        if (e != null) {
          next = e.value();
          nextKey = e.key();
        }
      } else if (key instanceof Integer index && t instanceof YSeq s) {
        next = item(s, index, located.nodes().get(i + 1));
      }
      if (next == null) {
        break;
      }
      t = next;
      lastKey = nextKey;
      matched++;
    }
    if (matched == located.keys().size() && !located.onKey() && !isEmpty(t.range())) {
      return new Followed(t.range(), matched);
    }
    return new Followed(lastKey != null ? lastKey.range() : head(t), matched);
  }

  /** The template's item for a rendered list item: the one of the same literal name, else by index. */
  private static YNode item(YSeq seq, int index, YNode renderedItem) {
    YMap r = renderedItem.asMap();
    String name = r == null ? null : r.string("name");
    if (name != null) {
      for (YNode candidate : seq.items()) {
        YMap c = candidate.asMap();
        YScalar n = c == null ? null : c.scalar("name");
        if (n != null && !n.isTemplated() && n.value().equals(name)) {
          return candidate;
        }
      }
    }
    return index < seq.size() ? seq.get(index) : null;
  }

  /** The first line of a node: a scalar itself, a mapping's first key, else where it starts. */
  private static Range head(YNode node) {
    if (node instanceof YMap m && !m.entries().isEmpty()) {
      return m.entries().get(0).key().range();
    }
    if (node instanceof YScalar && !isEmpty(node.range())) {
      return node.range();
    }
    return new Range(node.range().start(), node.range().start());
  }

  /** The template line with the same text as the rendered line, searched from the document on. */
  private Range byLine(Range range) {
    int from = templateDoc == null ? 0 : templateDoc.range().start().line();
    String line = rendered.line(range.start().line());
    String wanted = line.strip();
    if (!wanted.isEmpty()) {
      int count = template.lineCount();
      for (int k = 0; k < count; k++) {
        int l = (from + k) % count;
        String candidate = template.line(l);
        if (candidate.strip().equals(wanted)) {
          int shift = indent(candidate) - indent(line);
          int start = Math.max(0, range.start().column() + shift);
          int end = range.end().line() == range.start().line()
              ? Math.max(start, range.end().column() + shift)
              : candidate.codePointCount(0, candidate.length());
          return Range.of(l, start, l, end);
        }
      }
    }
    return writer();
  }

  /**
   * The template line whose hidden action wrote a rendered line the template does not show (a whole
   * document from {@code .Files.Get}, a block from {@code include}): the first such line in the template
   * document, else in the file; without one, the document's first line.
   */
  private Range writer() {
    int from = templateDoc == null ? 0 : templateDoc.range().start().line();
    int to = templateDoc == null ? template.lineCount() - 1 : templateDoc.range().end().line();
    int line = hiddenOutput.nextSetBit(from);
    if (line < 0 || line > to) {
      line = hiddenOutput.nextSetBit(0);
    }
    if (line < 0) {
      return Range.at(Math.min(from, template.lineCount() - 1), 0);
    }
    String text = template.line(line).stripTrailing();
    return Range.of(line, indent(text), line, text.codePointCount(0, text.length()));
  }

  private static int indent(String line) {
    int k = 0;
    while (k < line.length() && Character.isWhitespace(line.charAt(k))) {
      k++;
    }
    return line.codePointCount(0, k);
  }

  private static boolean contains(Range range, Position p) {
    return range.start().compareTo(p) <= 0 && (p.compareTo(range.end()) < 0 || range.start().equals(p));
  }

  private static boolean isEmpty(Range r) {
    return r.start().equals(r.end());
  }
}
