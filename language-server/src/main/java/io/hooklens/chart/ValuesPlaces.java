package io.hooklens.chart;

import io.hooklens.core.model.HookDocument;
import io.hooklens.core.yaml.ParsedFile;
import io.hooklens.core.yaml.Range;
import io.hooklens.core.yaml.SourceText;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YScalar;
import io.hooklens.core.yaml.YSeq;
import io.hooklens.core.yaml.YamlDocument;
import io.hooklens.core.yaml.YamlReader;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;

/**
 * Finds where in the values files a rendered block comes from, when an action wrote it ({@code toYaml .Values.x},
 * an {@code include} of a helper that does): the rendered block is compared with every mapping and list of the
 * values files Helm was given, the file that wins first ({@code -f} files in reverse order, then
 * {@code values.yaml}), and the largest rendered block on the way to the place that equals one of them says where
 * the place is. A block no values file holds as it is rendered (a helper's own text, a value changed by a
 * function) is not found.
 */
final class ValuesPlaces {
  /** A values file as read, with the name reports give it. */
  record ValuesFile(String displayName, HookDocument document) {}

  /** A place in a values file. */
  record Found(ValuesFile file, Range range) {}

  private final List<ValuesFile> files;

  /** The values files in the order they win: the last {@code -f} file first, {@code values.yaml} last. */
  ValuesPlaces(List<ValuesFile> files) {
    this.files = List.copyOf(files);
  }

  /** A values file read as Helm reads it (final YAML). */
  static ValuesFile read(String displayName, String text) {
    ParsedFile parsed = new YamlReader().read(new SourceText(text), false);
    return new ValuesFile(displayName, HookDocument.of(displayName, parsed));
  }

  /** Where the place at the end of an unwritten path is in the values files, or null. */
  Found find(SourceMapper.Unwritten u) {
    for (int i = 0; i < u.nodes().size(); i++) {
      YNode rendered = u.nodes().get(i);
      // The document's root is never a values subtree: it holds apiVersion and kind.
      if (!isBlock(rendered) || rendered.parent() == null) {
        continue;
      }
      Object key = i == 0 ? rendered.keyInParent() : u.keys().get(i - 1);
      for (ValuesFile f : files) {
        YNode same = match(f, rendered, key);
        if (same != null) {
          return new Found(f, place(same, u.keys().subList(i, u.keys().size()), u.onKey()));
        }
      }
    }
    return null;
  }

  /** A non-empty mapping or list: a scalar or an empty block alone is too common to say where it came from. */
  private static boolean isBlock(YNode n) {
    return n instanceof YMap m && m.size() > 0 || n instanceof YSeq s && s.size() > 0;
  }

  /** The node of a values file equal to the rendered one, preferring one under the same key; or null. */
  private static YNode match(ValuesFile f, YNode rendered, Object key) {
    YNode first = null;
    for (YamlDocument d : f.document().parsed().documents()) {
      Deque<YNode> todo = new ArrayDeque<>();
      if (d.root() != null) {
        todo.push(d.root());
      }
      while (!todo.isEmpty()) {
        YNode n = todo.pop();
        if (isBlock(n) && equal(n, rendered)) {
          if (Objects.equals(n.keyInParent(), key)) {
            return n;
          }
          if (first == null) {
            first = n;
          }
          continue;
        }
        children(n, todo);
      }
    }
    return first;
  }

  private static void children(YNode n, Deque<YNode> todo) {
    if (n instanceof YMap m) {
      for (int k = m.entries().size() - 1; k >= 0; k--) {
        todo.push(m.entries().get(k).value());
      }
    } else if (n instanceof YSeq s) {
      for (int k = s.size() - 1; k >= 0; k--) {
        todo.push(s.get(k));
      }
    }
  }

  /**
   * Whether two trees hold the same data: mappings by keys whatever their order (toYaml sorts them), lists item
   * by item, scalars by their text and type. Walked with a stack, as everything read from input is.
   */
  static boolean equal(YNode a, YNode b) {
    Deque<YNode[]> todo = new ArrayDeque<>();
    todo.push(new YNode[] {a, b});
    while (!todo.isEmpty()) {
      YNode[] pair = todo.pop();
      YNode x = pair[0];
      YNode y = pair[1];
      if (x instanceof YScalar sx && y instanceof YScalar sy) {
        if (!sx.value().equals(sy.value()) || sx.type() != sy.type()) {
          return false;
        }
      } else if (x instanceof YMap mx && y instanceof YMap my) {
        if (mx.size() != my.size()) {
          return false;
        }
        for (YMap.Entry e : mx.entries()) {
          YNode other = my.get(e.key().value());
          if (other == null) {
            return false;
          }
          todo.push(new YNode[] {e.value(), other});
        }
      } else if (x instanceof YSeq qx && y instanceof YSeq qy) {
        if (qx.size() != qy.size()) {
          return false;
        }
        for (int k = 0; k < qx.size(); k++) {
          todo.push(new YNode[] {qx.get(k), qy.get(k)});
        }
      } else {
        return false;
      }
    }
    return true;
  }

  /** The place the rest of the path leads to in a values node equal to the rendered one. */
  private static Range place(YNode from, List<Object> keys, boolean onKey) {
    YNode n = from;
    YScalar lastKey = null;
    for (Object k : keys) {
      if (k instanceof String s && n instanceof YMap m && m.entry(s) != null) {
        lastKey = m.entry(s).key();
        n = m.entry(s).value();
      } else if (k instanceof Integer index && n instanceof YSeq q && index < q.size()) {
        lastKey = null;
        n = q.get(index);
      } else {
        break;
      }
    }
    if (n instanceof YScalar && !onKey || lastKey == null && !(n instanceof YMap)) {
      return n.range();
    }
    // A block is marked by its key, as the template mapper does: its whole range would mark many lines.
    if (lastKey != null) {
      return lastKey.range();
    }
    YMap m = (YMap) n;
    return m.entries().isEmpty() ? n.range() : m.entries().get(0).key().range();
  }
}
