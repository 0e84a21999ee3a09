package io.hooklens.app;

import io.hooklens.core.engine.Finding;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.yaml.Position;
import io.hooklens.core.yaml.Range;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YScalar;
import io.hooklens.core.yaml.YSeq;
import io.hooklens.core.yaml.YamlDocument;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What identifies a finding across edits that do not touch it: its file, rule, resource, the key path of the
 * node it points at within that resource, and that node's value. Lines and columns are left out, so lines
 * inserted above a finding, or another resource renamed, leave its key as it was.
 */
final class FindingKeys {
  private FindingKeys() {}

  /**
   * The key of a finding.
   *
   * @param file the finding's file, relative to the baseline's directory, with {@code /} separators
   * @param path the key path within the resource (within the document for a finding on no resource), list items
   *     named by their {@code name} where they have one, so that reordering containers keeps it
   * @param value the scalar at the finding, its runs of whitespace made one space; empty when it is no scalar
   */
  record Key(String file, String rule, String kind, String namespace, String name, String path, String value)
      implements Comparable<Key> {
    @Override
    public int compareTo(Key o) {
      int c = 0;
      String[] a = {file, rule, kind, namespace, name, path, value};
      String[] b = {o.file, o.rule, o.kind, o.namespace, o.name, o.path, o.value};
      for (int i = 0; i < a.length && c == 0; i++) {
        c = a[i].compareTo(b[i]);
      }
      return c;
    }
  }

  /** A finding's key; {@code base} is the baseline's directory, {@code file} the finding's file, both absolute. */
  static Key of(Path base, Path file, HookDocument doc, Finding f) {
    Resource resource = resource(doc, f);
    String[] place = place(doc, f, resource);
    String kind = "";
    String namespace = "";
    String name = "";
    if (f.resource() != null) {
      kind = nonNull(f.resource().kind());
      name = nonNull(f.resource().name());
      namespace = resource == null ? "" : nonNull(resource.namespace());
    }
    return new Key(relative(base, file), f.ruleId(), kind, namespace, name, place[0], place[1]);
  }

  static String relative(Path base, Path file) {
    return base.relativize(file).toString().replace('\\', '/');
  }

  private static String nonNull(String s) {
    return s == null ? "" : s;
  }

  /** The resource the finding names, the innermost one around it where a List holds several. */
  private static Resource resource(HookDocument doc, Finding f) {
    if (f.resource() == null || doc == null) {
      return null;
    }
    Resource found = null;
    for (Resource r : doc.resources()) {
      if (r.document() == f.resource().document() && eq(r.kind(), f.resource().kind())
          && eq(r.name(), f.resource().name())
          && (found == null || contains(r.root().range(), f.range().start()))) {
        found = r;
      }
    }
    return found;
  }

  private static boolean eq(String a, String b) {
    return a == null ? b == null : a.equals(b);
  }

  /** The key path and value of the deepest node at the finding's start, found by descending from its document. */
  private static String[] place(HookDocument doc, Finding f, Resource resource) {
    if (doc == null) {
      return new String[] {"", ""};
    }
    Position at = f.range().start();
    YNode node = null;
    for (YamlDocument d : doc.parsed().documents()) {
      if (d.root() != null && (d.index() == f.document() || node == null && contains(d.root().range(), at))) {
        node = d.root();
      }
    }
    Range root = resource == null ? null : resource.root().range();
    List<String> path = new ArrayList<>();
    // Iterative: a document may nest deeper than the stack would allow.
    while (node != null) {
      if (node.range().equals(root)) {
        path.clear();
      }
      YNode next = null;
      if (node instanceof YMap m) {
        for (YMap.Entry e : m.entries()) {
          if (contains(e.key().range(), at) || e.value() != null && contains(e.value().range(), at)) {
            path.add(e.key().value());
            next = e.value();
            break;
          }
        }
      } else if (node instanceof YSeq s) {
        for (int i = 0; i < s.size() && next == null; i++) {
          if (contains(s.get(i).range(), at)) {
            next = s.get(i);
            String itemName = next instanceof YMap im ? im.string("name") : null;
            path.add("[" + (itemName != null ? "name=" + itemName : String.valueOf(i)) + "]");
          }
        }
      }
      if (next == null) {
        String value = node instanceof YScalar sc ? sc.value().strip().replaceAll("\\s+", " ") : "";
        return new String[] {String.join(".", path).replace(".[", "["), value};
      }
      node = next;
    }
    return new String[] {String.join(".", path).replace(".[", "["), ""};
  }

  private static boolean contains(Range r, Position p) {
    return p.equals(r.start()) || p.compareTo(r.start()) >= 0 && p.compareTo(r.end()) < 0;
  }
}
