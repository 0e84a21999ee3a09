package io.hooklens.chart;

import io.hooklens.core.yaml.Position;
import io.hooklens.core.yaml.Range;
import io.hooklens.core.yaml.SourceText;
import io.hooklens.core.yaml.TemplateMask;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YScalar;
import io.hooklens.core.yaml.YSeq;
import io.hooklens.core.yaml.YamlDocument;
import io.hooklens.core.yaml.YamlReader;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Finds the named template (a helper) whose own text writes a rendered place that a template does not write: the
 * helpers the template reaches by literal name ({@code include}, {@code template}, and the helpers those use) are
 * read with their actions masked, and the rendered path to the place is followed in each, starting from every
 * rendered node on the way. A place that exactly one helper holds, as a literal equal to the rendered one, is where
 * the value is written; one an action of a helper writes, or that more than one place could have written, is not
 * found.
 */
final class HelperPlaces {
  /** A place in a helper's text, and the names the template uses that lead to that helper. */
  record Found(ChartCopy.Origin file, Range range, Set<String> includedAs) {}

  /** A named template's body, read once asked for; its root is null when it is not YAML. */
  private static final class Helper {
    final ChartCopy.Origin file;
    final String text;
    final NamedTemplates.Definition definition;
    Set<String> uses;
    YNode root;
    int firstLine;
    boolean read;

    Helper(ChartCopy.Origin file, String text, NamedTemplates.Definition definition) {
      this.file = file;
      this.text = text;
      this.definition = definition;
    }
  }

  private record Candidate(Helper helper, Range range) {}

  private final ChartCopy copy;
  private final YamlReader reader = new YamlReader();
  private Map<String, List<Helper>> byName;
  /** The helpers each template reaches, by its text: a template has many findings. */
  private final Map<String, Map<Helper, Set<String>>> byTemplate = new HashMap<>();

  HelperPlaces(ChartCopy copy) {
    this.copy = copy;
  }

  /** Where in a helper the place at the end of an unwritten path is written, or null. */
  Found find(String template, SourceMapper.Unwritten u) throws IOException {
    Map<Helper, Set<String>> reached = byTemplate.get(template);
    if (reached == null) {
      reached = reached(NamedTemplates.used(template));
      byTemplate.put(template, reached);
    }
    Set<Candidate> candidates = new LinkedHashSet<>();
    for (Helper h : reached.keySet()) {
      YNode root = root(h);
      for (int i = 0; root != null && i < u.nodes().size(); i++) {
        Range r = follow(root, u, i);
        if (r != null) {
          candidates.add(new Candidate(h, Range.of(r.startLine() + h.firstLine, r.startColumn(),
              r.endLine() + h.firstLine, r.endColumn())));
        }
      }
    }
    if (candidates.size() != 1) {
      return null;
    }
    Candidate c = candidates.iterator().next();
    return new Found(c.helper().file, c.range(), reached.get(c.helper()));
  }

  /** The line of a template that includes one of the names, the first at or after a line when there are several. */
  static Range inclusion(SourceText template, Set<String> names, int near) {
    List<Integer> lines = new ArrayList<>();
    for (int l = 0; l < template.lineCount(); l++) {
      String line = template.line(l);
      if (line.contains("{{") && names.stream().anyMatch(n -> uses(line, n))) {
        lines.add(l);
      }
    }
    int line = lines.size() == 1 ? lines.get(0) : lines.stream().filter(l -> l >= near).findFirst().orElse(-1);
    if (line < 0) {
      return null;
    }
    String text = template.line(line).stripTrailing();
    int indent = text.length() - text.stripLeading().length();
    return Range.of(line, text.codePointCount(0, indent), line, text.codePointCount(0, text.length()));
  }

  private static boolean uses(String line, String name) {
    return Pattern.compile("\\b(?:include|template)\\s+\"" + Pattern.quote(name) + "\"").matcher(line).find();
  }

  /** Every helper the names lead to, through the helpers they use, with the names that lead to it. */
  private Map<Helper, Set<String>> reached(Set<String> direct) throws IOException {
    Map<Helper, Set<String>> reached = new HashMap<>();
    for (String start : direct) {
      Set<String> seen = new HashSet<>(List.of(start));
      Deque<String> todo = new ArrayDeque<>(List.of(start));
      while (!todo.isEmpty()) {
        for (Helper h : helpers().getOrDefault(todo.pop(), List.of())) {
          reached.computeIfAbsent(h, k -> new LinkedHashSet<>()).add(start);
          for (String next : uses(h)) {
            if (seen.add(next)) {
              todo.push(next);
            }
          }
        }
      }
    }
    return reached;
  }

  private Map<String, List<Helper>> helpers() throws IOException {
    if (byName == null) {
      byName = new HashMap<>();
      for (ChartCopy.Origin o : copy.templates()) {
        String text = o.text();
        if (!text.contains("define")) {
          continue;
        }
        for (NamedTemplates.Definition d : NamedTemplates.definitions(text)) {
          byName.computeIfAbsent(d.name(), k -> new ArrayList<>()).add(new Helper(o, text, d));
        }
      }
    }
    return byName;
  }

  private static Set<String> uses(Helper h) {
    if (h.uses == null) {
      h.uses = NamedTemplates.used(h.text.substring(h.definition.start(), h.definition.end()));
    }
    return h.uses;
  }

  /** A helper's body as YAML, its actions masked, read where it stands in its file. */
  private YNode root(Helper h) {
    if (!h.read) {
      h.read = true;
      Position start = new SourceText(h.text).positionAt(h.definition.start());
      h.firstLine = start.line();
      String body = " ".repeat(start.column()) + h.text.substring(h.definition.start(), h.definition.end());
      List<YamlDocument> docs = reader.read(new SourceText(TemplateMask.mask(body)), false).documents();
      h.root = docs.size() == 1 ? docs.get(0).root() : null;
    }
    return h.root;
  }

  /**
   * The place the rendered path leads to in a helper's body taken as the rendered node {@code from}: its literal key
   * or value, where what the body holds there equals what was rendered; null where it does not hold it so.
   */
  private static Range follow(YNode root, SourceMapper.Unwritten u, int from) {
    List<Object> keys = u.keys();
    if (from == keys.size() && u.onKey() || !fits(root, u.nodes().get(from), from == keys.size())) {
      return null;
    }
    YNode t = root;
    YScalar lastKey = null;
    for (int k = from; k < keys.size(); k++) {
      Object key = keys.get(k);
      YNode next = null;
      if (key instanceof String s && t instanceof YMap m && m.entry(s) != null && !m.entry(s).key().isTemplated()) {
        lastKey = m.entry(s).key();
        next = m.entry(s).value();
      } else if (key instanceof Integer index && t instanceof YSeq q) {
        lastKey = null;
        next = item(q, index, u.nodes().get(k + 1));
      }
      if (next == null) {
        return null;
      }
      t = next;
    }
    YNode place = u.nodes().get(keys.size());
    if (u.onKey()) {
      // A key alone is too common to say where it came from: its value must be the helper's, as rendered.
      return lastKey != null && ValuesPlaces.equal(t, place) ? lastKey.range() : null;
    }
    if (place instanceof YScalar p) {
      return t instanceof YScalar s && !s.isTemplated() && s.value().equals(p.value())
          && !s.range().start().equals(s.range().end()) ? s.range() : null;
    }
    if (!ValuesPlaces.equal(t, place)) {
      return null;
    }
    // A block is marked by its key, as the values files mark theirs.
    return lastKey != null ? lastKey.range() : t instanceof YMap m && m.size() > 0 ? m.entries().get(0).key().range()
        : t.range();
  }

  /** Whether a helper's output can be the rendered node: its literal keys all there, or no more items. */
  private static boolean fits(YNode root, YNode rendered, boolean whole) {
    if (root instanceof YMap m && rendered instanceof YMap r && m.size() > 0) {
      return m.entries().stream().allMatch(e -> e.key().isTemplated() || r.get(e.key().value()) != null);
    }
    if (root instanceof YSeq s && rendered instanceof YSeq r && s.size() > 0) {
      return s.size() <= r.size();
    }
    return whole && root instanceof YScalar && rendered instanceof YScalar;
  }

  /**
   * A helper's item for a rendered list item: the one of the same literal name; else the one at its index, unless
   * that one has another literal name.
   */
  private static YNode item(YSeq seq, int index, YNode renderedItem) {
    YMap r = renderedItem.asMap();
    String name = r == null ? null : r.string("name");
    if (name != null) {
      for (YNode candidate : seq.items()) {
        YScalar n = candidate.asMap() == null ? null : candidate.asMap().scalar("name");
        if (n != null && !n.isTemplated() && n.value().equals(name)) {
          return candidate;
        }
      }
    }
    if (index >= seq.size()) {
      return null;
    }
    YNode at = seq.get(index);
    YScalar n = at.asMap() == null ? null : at.asMap().scalar("name");
    return name != null && n != null && !n.isTemplated() ? null : at;
  }
}
