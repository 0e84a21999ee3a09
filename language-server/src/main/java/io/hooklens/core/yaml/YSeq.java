package io.hooklens.core.yaml;

import java.util.List;

/** A sequence (block or flow). */
public final class YSeq extends YNode {
  private final List<YNode> items;
  private final int weight;

  YSeq(Range range, List<YNode> items, int weight) {
    super(range);
    this.weight = weight;
    this.items = List.copyOf(items);
  }

  @Override
  int weight() {
    return weight;
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
}
