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

  /**
   * Keys at even indices, each followed by its value. Entries are made when asked for: an object per pair and a
   * list per map were a third of what the tree of a large file took.
   */
  private final YNode[] keysAndValues;
  private final Map<String, Entry> byKey;

  YMap(Range range, YNode[] keysAndValues, List<YMap> merged) {
    super(range);
    this.keysAndValues = keysAndValues;
    int size = keysAndValues.length / 2;
    if (merged.isEmpty() && size <= LINEAR_MAX) {
      this.byKey = null;
      return;
    }
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
    this.byKey = index;
  }

  private YScalar key(int i) {
    return (YScalar) keysAndValues[2 * i];
  }

  private YNode value(int i) {
    return keysAndValues[2 * i + 1];
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
      return keysAndValues.length / 2;
    }
  }

  /** Effective entries, merged ones included, in a stable order. */
  public List<Entry> effectiveEntries() {
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
    return byKey != null ? byKey.containsKey(key) : indexOf(key) >= 0;
  }

  public YNode get(String key) {
    if (byKey != null) {
      Entry e = byKey.get(key);
      return e == null ? null : e.value();
    }
    int i = indexOf(key);
    return i < 0 ? null : value(i);
  }

  public Entry entry(String key) {
    if (byKey != null) {
      return byKey.get(key);
    }
    int i = indexOf(key);
    return i < 0 ? null : new Entry(key(i), value(i));
  }

  /** The index of the last entry written with a key, or -1. */
  private int indexOf(String key) {
    for (int i = keysAndValues.length / 2 - 1; i >= 0; i--) {
      if (key(i).value().equals(key)) {
        return i;
      }
    }
    return -1;
  }

  /** The key under which this map first holds a node (as its key or its value), or null. */
  String keyOf(YNode node) {
    for (int i = 0; i < keysAndValues.length; i++) {
      if (keysAndValues[i] == node) {
        return key(i / 2).value();
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
    return byKey != null ? byKey.size() : effectiveEntries().size();
  }
}
