package io.hooklens.app;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.snakeyaml.engine.v2.comments.CommentLine;
import org.snakeyaml.engine.v2.comments.CommentType;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

/**
 * The comments of a migration's input, carried to the place of the output that stands for where they were.
 * A comment belongs to a map key or list item of the loaded objects. Objects the output keeps take their
 * comments along; {@link #move} sends a key's comments to a key of a new object, {@link #rest} everything
 * left under a key to one place of the output, {@link #toNote} to a note. What finds no place at all is
 * listed in one last note: nothing the user wrote is lost.
 */
final class KeptComments {
  /** The key of a container's end comments, those after its last entry. */
  static final Object END = new Object();

  /** The start of a line, where a comment that must have a line of its own is marked. */
  private static final Optional<Mark> LINE_START = Optional.of(new Mark("output", 0, 0, 0, new int[0], 0));

  /** The comments of one key or item, and its path in its document for the last note. */
  private static final class Entry {
    final String path;
    final List<CommentLine> block;
    final List<CommentLine> inline;
    boolean placed;

    Entry(String path, List<CommentLine> block, List<CommentLine> inline) {
      this.path = path;
      this.block = block;
      this.inline = inline;
    }
  }

  /** Where the comments left under {@code key} of {@code from} go: a key of the output, or a note. */
  private record Rest(Object from, Object key, Object to, Object toKey, int note) {}

  private final Map<Object, Map<Object, Entry>> entries = new IdentityHashMap<>();
  private final Map<Object, Map<Object, List<Entry>>> moved = new IdentityHashMap<>();
  private final List<Rest> rests = new ArrayList<>();
  private final List<Object> roots = new ArrayList<>();
  private final Map<Object, Map<Object, Node>> keyNodes = new IdentityHashMap<>();

  /** Reads the comments of a document, composed as {@code node}, loaded as {@code object}. */
  void read(Node node, Object object) {
    if (!(object instanceof Map<?, ?>) && !(object instanceof List<?>)) {
      // Only comments, or a bare scalar: no field to keep them on.
      Object holder = new ArrayList<>();
      roots.add(holder);
      add(holder, END, "a document without an object", node.getBlockComments(), node.getInLineComments());
      return;
    }
    roots.add(object);
    read(node, object, "", Collections.newSetFromMap(new IdentityHashMap<>()));
  }

  private void read(Node node, Object object, String path, Set<Node> seen) {
    if (!seen.add(node)) {
      return;
    }
    add(object, END, path.isEmpty() ? "the end" : path + " (end)", node.getEndComments(), null);
    if (node instanceof MappingNode m && object instanceof Map<?, ?> map) {
      for (NodeTuple t : m.getValue()) {
        if (!(t.getKeyNode() instanceof ScalarNode k)) {
          continue;
        }
        Object key = keyOf(map, k.getValue());
        if (key == null) {
          continue; // a merge key: its entries are read where they were written
        }
        String at = path.isEmpty() ? String.valueOf(key) : path + "." + key;
        List<CommentLine> inline = new ArrayList<>(list(k.getInLineComments()));
        inline.addAll(list(t.getValueNode().getInLineComments()));
        add(map, key, at, k.getBlockComments(), inline);
        read(t.getValueNode(), map.get(key), at, seen);
      }
    } else if (node instanceof SequenceNode s && object instanceof List<?> items) {
      for (int i = 0; i < s.getValue().size() && i < items.size(); i++) {
        Node item = s.getValue().get(i);
        String at = path + "[" + i + "]";
        add(items, i, at, item.getBlockComments(), item.getInLineComments());
        read(item, items.get(i), at, seen);
      }
    }
  }

  private static Object keyOf(Map<?, ?> map, String text) {
    if (map.containsKey(text)) {
      return text;
    }
    for (Object key : map.keySet()) {
      if (key != null && String.valueOf(key).equals(text)) {
        return key;
      }
    }
    return null;
  }

  private void add(Object container, Object key, String path, List<CommentLine> block, List<CommentLine> inline) {
    if (list(block).isEmpty() && list(inline).isEmpty()) {
      return;
    }
    entries.computeIfAbsent(container, c -> new LinkedHashMap<>())
        .put(key, new Entry(path, List.copyOf(list(block)), List.copyOf(list(inline))));
  }

  /** Sends the comments of {@code key} of {@code from} to {@code toKey} of the output's {@code to}. */
  void move(Object from, Object key, Object to, Object toKey) {
    Entry e = entries.getOrDefault(from, Map.of()).get(key);
    if (e != null) {
      moved.computeIfAbsent(to, c -> new IdentityHashMap<>()).computeIfAbsent(toKey, k -> new ArrayList<>()).add(e);
    }
  }

  /** Sends the comments of every key of {@code from}, and its end comments, to the same keys of its copy. */
  void moveAll(Map<?, ?> from, Map<?, ?> to) {
    for (Object key : from.keySet()) {
      move(from, key, to, key);
    }
    move(from, END, to, END);
  }

  /** Sends the comments of {@code key} of {@code from} and under it that found no other place above {@code toKey}. */
  void rest(Object from, Object key, Object to, Object toKey) {
    rests.add(new Rest(from, key, to, toKey, -1));
  }

  /** Sends the comments of {@code key} of {@code from} and under it to the note at {@code note} of the notes. */
  void toNote(Object from, Object key, int note) {
    rests.add(new Rest(from, key, null, null, note));
  }

  /**
   * Puts the comments onto the output, documents loaded as {@code objects} and represented as {@code nodes}, and
   * onto the notes; the comments that found no place become one more note.
   */
  void write(List<Object> objects, List<Node> nodes, List<String> notes) {
    Set<Node> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (int i = 0; i < objects.size(); i++) {
      attach(objects.get(i), nodes.get(i), seen);
    }
    for (Rest r : rests) {
      List<Entry> left = new ArrayList<>();
      under(r.from(), r.key(), left, Collections.newSetFromMap(new IdentityHashMap<>()));
      Node at = r.to() == null ? null : keyNodes.getOrDefault(r.to(), Map.of()).get(r.toKey());
      if (r.note() >= 0) {
        notes.set(r.note(), notes.get(r.note()) + quoted(left, false));
      } else if (at != null) {
        left.forEach(e -> at.setBlockComments(join(at.getBlockComments(), asBlock(e))));
      } else {
        left.forEach(e -> e.placed = false);
      }
    }
    List<Entry> lost = new ArrayList<>();
    Set<Object> seenObjects = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Object root : roots) {
      under(root, null, lost, seenObjects);
    }
    if (!lost.isEmpty()) {
      notes.add("comments on fields with no place in the result:" + quoted(lost, true));
    }
    Set<Node> lifted = Collections.newSetFromMap(new IdentityHashMap<>());
    nodes.forEach(n -> aboveDashes(n, lifted));
  }

  private void attach(Object object, Node node, Set<Node> seen) {
    if (!seen.add(node)) {
      return;
    }
    List<Entry> end = take(object, END);
    end.forEach(e -> node.setEndComments(join(node.getEndComments(), asBlock(e))));
    if (node instanceof MappingNode m && object instanceof Map<?, ?> map) {
      var keys = map.keySet().iterator();
      for (NodeTuple t : m.getValue()) {
        Object key = keys.next();
        keyNodes.computeIfAbsent(object, o -> new IdentityHashMap<>()).put(key, t.getKeyNode());
        Node inlineAt = t.getValueNode() instanceof ScalarNode ? t.getValueNode() : t.getKeyNode();
        for (Entry e : take(object, key)) {
          t.getKeyNode().setBlockComments(join(t.getKeyNode().getBlockComments(), e.block));
          inlineAt.setInLineComments(join(inlineAt.getInLineComments(), e.inline));
        }
        attach(map.get(key), t.getValueNode(), seen);
      }
    } else if (node instanceof SequenceNode s && object instanceof List<?> items) {
      for (int i = 0; i < s.getValue().size(); i++) {
        Node item = s.getValue().get(i);
        for (Entry e : take(object, i)) {
          // Only a scalar item ends on the line of its "-": a collection's inline comment becomes a line.
          item.setBlockComments(join(item.getBlockComments(), item instanceof ScalarNode ? e.block : asBlock(e)));
          if (item instanceof ScalarNode) {
            item.setInLineComments(join(item.getInLineComments(), e.inline));
          }
        }
        attach(items.get(i), item, seen);
      }
    }
  }

  /**
   * Puts the comment lines that lead each list item above its {@code -}. The emitter writes an item's comments
   * there only when they are marked at or before the column of the {@code -}; marked elsewhere, as where the
   * input had them, or on the item's first key or item, they follow the {@code - }.
   */
  private static void aboveDashes(Node node, Set<Node> seen) {
    if (!seen.add(node)) {
      return;
    }
    if (node instanceof MappingNode m) {
      m.getValue().forEach(t -> aboveDashes(t.getValueNode(), seen));
    } else if (node instanceof SequenceNode s) {
      for (Node item : s.getValue()) {
        item.setBlockComments(takeLead(item).stream().map(c -> new CommentLine(LINE_START, LINE_START,
            c.getValue(), c.getCommentType())).toList());
        aboveDashes(item, seen);
      }
    }
  }

  /** Takes the comment lines written before {@code node}'s first token: its own, then its first key's or item's. */
  private static List<CommentLine> takeLead(Node node) {
    List<CommentLine> out = new ArrayList<>(list(node.getBlockComments()));
    node.setBlockComments(List.of());
    if (node instanceof MappingNode m && !m.getValue().isEmpty()) {
      out.addAll(takeLead(m.getValue().get(0).getKeyNode()));
    } else if (node instanceof SequenceNode s && !s.getValue().isEmpty()) {
      out.addAll(takeLead(s.getValue().get(0)));
    }
    return out;
  }

  /** The unplaced comments of {@code key} of {@code container}, its own and those moved to it, now placed. */
  private List<Entry> take(Object container, Object key) {
    List<Entry> out = new ArrayList<>();
    Entry own = entries.getOrDefault(container, Map.of()).get(key);
    if (own != null) {
      out.add(own);
    }
    out.addAll(moved.getOrDefault(container, Map.of()).getOrDefault(key, List.of()));
    out.removeIf(e -> e.placed);
    out.forEach(e -> e.placed = true);
    return out;
  }

  /** Collects and places the unplaced comments of {@code key} of {@code container} and under it; all with null. */
  private void under(Object container, Object key, List<Entry> out, Set<Object> seen) {
    if (!(container instanceof Map<?, ?>) && !(container instanceof List<?>) || !seen.add(container) && key == null) {
      return;
    }
    Map<Object, Entry> own = entries.getOrDefault(container, Map.of());
    List<Object> keys = new ArrayList<>();
    if (key != null) {
      keys.add(key);
    } else if (container instanceof Map<?, ?> map) {
      keys.addAll(map.keySet());
      keys.add(END);
    } else {
      for (int i = 0; i < ((List<?>) container).size(); i++) {
        keys.add(i);
      }
      keys.add(END);
    }
    for (Object k : keys) {
      Entry e = own.get(k);
      if (e != null && !e.placed) {
        e.placed = true;
        out.add(e);
      }
      if (k != END) {
        under(container instanceof Map<?, ?> map ? map.get(k) : ((List<?>) container).get((Integer) k), null, out,
            seen);
      }
    }
  }

  /** The comments as lines under a note: each {@code # text} as written, after its path if asked. */
  private static String quoted(List<Entry> entries, boolean withPath) {
    StringBuilder sb = new StringBuilder();
    for (Entry e : entries) {
      for (CommentLine c : asBlock(e)) {
        if (c.getCommentType() != CommentType.BLANK_LINE) {
          sb.append("\n  ").append(withPath ? e.path + ": " : "").append('#').append(c.getValue());
        }
      }
    }
    return sb.toString();
  }

  /** An entry's comments as lines of their own, for places with no line end to keep an inline comment on. */
  private static List<CommentLine> asBlock(Entry e) {
    List<CommentLine> out = new ArrayList<>(e.block);
    for (CommentLine c : e.inline) {
      out.add(new CommentLine(c.getStartMark(), c.getEndMark(), c.getValue(), CommentType.BLOCK));
    }
    return out;
  }

  private static List<CommentLine> join(List<CommentLine> a, List<CommentLine> b) {
    List<CommentLine> out = new ArrayList<>(list(a));
    out.addAll(b);
    return out;
  }

  private static <T> List<T> list(List<T> l) {
    return l == null ? List.of() : l;
  }
}
