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

  /** Bits of a packed key's end column; the key's type and quotes take the bits above. */
  private static final int COLUMN_BITS = 27;

  /**
   * Keys at even indices, each followed by its value; after them, for maps with an index, the index. A key is its
   * text, with its line and columns in {@link #keyPlaces}, or, when those do not pack (a key over several lines, a key
   * that is an alias), its node. Entries and key nodes are made when asked for: an object per pair, a list per map
   * and a node per key were half of what the tree of a large file took.
   */
  private final Object[] keysAndValues;
  /** For each key, its line, start column, and end column with its type and quotes above {@link #COLUMN_BITS}. */
  private final int[] keyPlaces;

  /** The keys, alternating with their values, in the order written; they become this map's children. */
  YMap(Range range, List<YNode> keysAndValues, List<YMap> merged) {
    super(range);
    int size = keysAndValues.size() / 2;
    boolean indexed = !merged.isEmpty() || size > LINEAR_MAX;
    this.keysAndValues = new Object[2 * size + (indexed ? 1 : 0)];
    this.keyPlaces = new int[3 * size];
    for (int i = 0; i < size; i++) {
      YScalar key = (YScalar) keysAndValues.get(2 * i);
      Range at = key.range();
      int end = at.end().column();
      boolean packs = key.parent() == null && at.start().line() == at.end().line() && end >= 0
          && end < 1 << COLUMN_BITS;
      this.keysAndValues[2 * i] = packs ? key.value() : key;
      this.keysAndValues[2 * i + 1] = keysAndValues.get(2 * i + 1);
      // The reader's key node lives on only when an anchor names it; it too belongs to this map.
      key.attach(this);
      keysAndValues.get(2 * i + 1).attach(this);
      if (packs) {
        keyPlaces[3 * i] = at.start().line();
        keyPlaces[3 * i + 1] = at.start().column();
        keyPlaces[3 * i + 2] = end | key.kind() << COLUMN_BITS;
      }
    }
    if (indexed) {
      this.keysAndValues[2 * size] = index(merged);
    }
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

  /** The lookup index of a map with merge keys or many entries, or null. */
  @SuppressWarnings("unchecked")
  private Map<String, Entry> byKey() {
    return keysAndValues.length % 2 == 1 ? (Map<String, Entry>) keysAndValues[keysAndValues.length - 1] : null;
  }

  private int entryCount() {
    return keysAndValues.length / 2;
  }

  private String keyText(int i) {
    Object k = keysAndValues[2 * i];
    return k instanceof String s ? s : ((YScalar) k).value();
  }

  /** The node of a key; a packed key's is made anew, held by this map like the one the reader made. */
  private YScalar key(int i) {
    if (keysAndValues[2 * i] instanceof YScalar k) {
      return k;
    }
    int line = keyPlaces[3 * i];
    int end = keyPlaces[3 * i + 2];
    YScalar k = new YScalar(Range.of(line, keyPlaces[3 * i + 1], line, end & (1 << COLUMN_BITS) - 1), keyText(i),
        end >>> COLUMN_BITS);
    k.attach(this);
    return k;
  }

  private YNode value(int i) {
    return (YNode) keysAndValues[2 * i + 1];
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
    for (int i = entryCount() - 1; i >= 0; i--) {
      if (keyText(i).equals(key)) {
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
    // A key node made by key(i): its own text.
    return node instanceof YScalar s && s.parent() == this ? s.value() : null;
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
