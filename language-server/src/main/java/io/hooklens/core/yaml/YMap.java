package io.hooklens.core.yaml;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;

/**
 * A mapping. Lookups by key follow YAML merge keys ({@code <<: *base}); an explicit key wins over a
 * merged one, and of duplicate keys the last wins, as in Kubernetes' decoders.
 */
public final class YMap extends YNode {
  /** One key/value pair as written; the key node gives the position of the key. */
  public record Entry(YScalar key, YNode value) {}

  /** Maps this small are searched linearly; building a hash index for each would cost more. */
  private static final int LINEAR_MAX = 12;

  private static final int PLACE = Packed.SIZE;

  private final int startLine;
  private final int endLine;
  /** Both columns of the range, or {@link Span#SPILLED}. */
  private final int columns;
  /**
   * Keys at even indices, each followed by its value; after them the places, then, for maps with an index, the
   * index. A key or value that {@link Packed packs} is its text, with its place in the places; any other is its node.
   * Entries are made when asked for: an object per pair and a list per map were a third of what the tree of a large
   * file took. The places are: for each entry, its key's, then, when any value of the map is packed, its value's (a
   * value's numbers cost a fifth of the node they replace); then any {@link Span spilled} columns. They are kept in
   * this array rather than a field of their own so that a map takes 32 bytes, not 40.
   */
  private final Object[] keysAndValues;

  /** The keys, alternating with their values, in the order written; they become this map's children. */
  YMap(Range range, List<YNode> keysAndValues, List<YMap> merged) {
    this.startLine = range.startLine();
    this.endLine = range.endLine();
    this.columns = Span.columns(range);
    int size = keysAndValues.size() / 2;
    boolean indexed = !merged.isEmpty() || size > LINEAR_MAX;
    boolean packedValues = false;
    for (int i = 0; i < size && !packedValues; i++) {
      packedValues = Packed.packs(keysAndValues.get(2 * i + 1));
    }
    this.keysAndValues = new Object[2 * size + 1 + (indexed ? 1 : 0)];
    int[] places = Span.withRoom(new int[(packedValues ? 2 : 1) * PLACE * size], columns);
    Span.spill(places, range, columns);
    this.keysAndValues[2 * size] = places;
    for (int i = 0; i < 2 * size; i++) {
      YNode node = keysAndValues.get(i);
      boolean packed = (i % 2 == 0 || packedValues) && Packed.packs(node);
      this.keysAndValues[i] = packed ? ((YScalar) node).value() : node;
      // The reader's node lives on only when an anchor names it; it too belongs to this map.
      node.attach(this);
      if (packed) {
        Packed.put(places, place(i), (YScalar) node);
      }
    }
    if (indexed) {
      this.keysAndValues[2 * size + 1] = index(merged);
    }
  }

  @Override
  public Range range() {
    return Span.range(startLine, endLine, columns, places());
  }

  private int[] places() {
    return (int[]) keysAndValues[2 * entryCount()];
  }

  private Map<String, Entry> index(List<YMap> merged) {
    Map<String, Entry> index = new LinkedHashMap<>();
    for (YMap m : merged) {
      for (Entry e : m.entries()) {
        index.putIfAbsent(e.key().value(), e);
      }
    }
    Map<String, Entry> explicit = new LinkedHashMap<>();
    for (Entry e : entries()) {
      explicit.put(e.key().value(), e);
    }
    index.putAll(explicit);
    return index;
  }

  /** Where the place of the key (even index) or value (odd index) at an index of {@link #keysAndValues} starts. */
  private int place(int index) {
    int entry = index / 2;
    boolean keysOnly = places().length - Span.spilled(columns) == PLACE * entryCount();
    return keysOnly ? PLACE * entry : 2 * PLACE * entry + PLACE * (index % 2);
  }

  /** The lookup index of a map with merge keys or many entries, or null. */
  @SuppressWarnings("unchecked")
  private Map<String, Entry> byKey() {
    return keysAndValues.length % 2 == 0 ? (Map<String, Entry>) keysAndValues[keysAndValues.length - 1] : null;
  }

  private int entryCount() {
    return (keysAndValues.length - 1) / 2;
  }

  private String keyText(int i) {
    Object k = keysAndValues[2 * i];
    return k instanceof String s ? s : ((YScalar) k).value();
  }

  private YScalar key(int i) {
    return (YScalar) node(2 * i);
  }

  private YNode value(int i) {
    return node(2 * i + 1);
  }

  /** The node at an index of {@link #keysAndValues}; a packed scalar's is made anew, held by this map. */
  private YNode node(int index) {
    if (keysAndValues[index] instanceof YNode n) {
      return n;
    }
    return Packed.node(places(), place(index), (String) keysAndValues[index], this);
  }

  /** Entries as written in this map, without merged ones. */
  public List<Entry> entries() {
    return new Entries();
  }

  private final class Entries extends AbstractList<Entry> implements RandomAccess {
    @Override
    public Entry get(int i) {
      if (i < 0 || i >= size()) {
        throw new IndexOutOfBoundsException(i);
      }
      return new Entry(key(i), value(i));
    }

    @Override
    public int size() {
      return entryCount();
    }
  }

  /** Effective entries, merged ones included, in a stable order. */
  public List<Entry> effectiveEntries() {
    Map<String, Entry> byKey = byKey();
    if (byKey != null) {
      return new ArrayList<>(byKey.values());
    }
    Map<String, Entry> last = new LinkedHashMap<>();
    for (Entry e : entries()) {
      last.put(e.key().value(), e);
    }
    return new ArrayList<>(last.values());
  }

  public boolean has(String key) {
    Map<String, Entry> byKey = byKey();
    return byKey != null ? byKey.containsKey(key) : indexOf(key) >= 0;
  }

  public YNode get(String key) {
    Map<String, Entry> byKey = byKey();
    if (byKey != null) {
      Entry e = byKey.get(key);
      return e == null ? null : e.value();
    }
    int i = indexOf(key);
    return i < 0 ? null : value(i);
  }

  public Entry entry(String key) {
    Map<String, Entry> byKey = byKey();
    if (byKey != null) {
      return byKey.get(key);
    }
    int i = indexOf(key);
    return i < 0 ? null : new Entry(key(i), value(i));
  }

  /** The index of the last entry written with a key, or -1. */
  private int indexOf(String key) {
    // Strings keep their hash: comparing hashes first leaves one comparison of text for the key that matches.
    int hash = key.hashCode();
    for (int i = entryCount() - 1; i >= 0; i--) {
      String k = keyText(i);
      if (k.hashCode() == hash && k.equals(key)) {
        return i;
      }
    }
    return -1;
  }

  /** The key under which this map first holds a node (as its key or its value), or null. */
  String keyOf(YNode node) {
    for (int i = 0; i < 2 * entryCount(); i++) {
      if (keysAndValues[i] == node) {
        return keyText(i / 2);
      }
    }
    // A scalar made from its packed place (or the reader's node it was packed from) is found by where it starts.
    if (node instanceof YScalar && node.parent() == this) {
      Range at = node.range();
      for (int i = 0; i < 2 * entryCount(); i++) {
        if (keysAndValues[i] instanceof String && Packed.startsAt(places(), place(i), at)) {
          return keyText(i / 2);
        }
      }
    }
    return null;
  }

  public YMap map(String key) {
    YNode n = get(key);
    return n == null ? null : n.asMap();
  }

  public YSeq seq(String key) {
    YNode n = get(key);
    return n == null ? null : n.asSeq();
  }

  public YScalar scalar(String key) {
    YNode n = get(key);
    return n == null ? null : n.asScalar();
  }

  /** The string value of a scalar entry, or null when absent or not a scalar. */
  public String string(String key) {
    YScalar s = scalar(key);
    return s == null || s.type() == YScalar.Type.NULL ? null : s.value();
  }

  public int size() {
    Map<String, Entry> byKey = byKey();
    return byKey != null ? byKey.size() : effectiveEntries().size();
  }
}
