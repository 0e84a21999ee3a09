package io.hooklens.core.yaml;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A mapping. Lookups by key follow YAML merge keys ({@code <<: *base}); an explicit key wins over a
 * merged one, and of duplicate keys the last wins, as in Kubernetes' decoders.
 */
public final class YMap extends YNode {
  /** One key/value pair as written; the key node gives the position of the key. */
  public record Entry(YScalar key, YNode value) {}

  /** Maps this small are searched linearly; building a hash index for each would cost more. */
  private static final int LINEAR_MAX = 12;

  private final List<Entry> entries;
  private final Map<String, Entry> byKey;
  private final int weight;

  YMap(Range range, List<Entry> entries, List<YMap> merged, int weight) {
    super(range);
    this.weight = weight;
    this.entries = List.copyOf(entries);
    if (merged.isEmpty() && entries.size() <= LINEAR_MAX) {
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
    for (Entry e : entries) {
      explicit.put(e.key().value(), e);
    }
    index.putAll(explicit);
    this.byKey = index;
  }

  @Override
  int weight() {
    return weight;
  }

  /** Entries as written in this map, without merged ones. */
  public List<Entry> entries() {
    return entries;
  }

  /** Effective entries, merged ones included, in a stable order. */
  public List<Entry> effectiveEntries() {
    if (byKey != null) {
      return new ArrayList<>(byKey.values());
    }
    Map<String, Entry> last = new LinkedHashMap<>();
    for (Entry e : entries) {
      last.put(e.key().value(), e);
    }
    return new ArrayList<>(last.values());
  }

  public boolean has(String key) {
    return entry(key) != null;
  }

  public YNode get(String key) {
    Entry e = entry(key);
    return e == null ? null : e.value();
  }

  public Entry entry(String key) {
    if (byKey != null) {
      return byKey.get(key);
    }
    for (int i = entries.size() - 1; i >= 0; i--) {
      Entry e = entries.get(i);
      if (e.key().value().equals(key)) {
        return e;
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
