package io.hooklens.core.yaml;

import java.util.List;

/** A sequence (block or flow). */
public final class YSeq extends YNode {
  private final List<YNode> items;

  /** The items, which become this sequence's children. */
  YSeq(Range range, List<YNode> items) {
    super(range);
    this.items = List.copyOf(items);
    for (YNode item : this.items) {
      item.attach(this);
    }
  }

  public List<YNode> items() {
    return items;
  }

  public int size() {
    return items.size();
  }

  public YNode get(int i) {
    return items.get(i);
  }

  /** The index at which this sequence first holds a node, or null. */
  Integer indexOf(YNode node) {
    for (int i = 0; i < items.size(); i++) {
      if (items.get(i) == node) {
        return i;
      }
    }
    return null;
  }
}
