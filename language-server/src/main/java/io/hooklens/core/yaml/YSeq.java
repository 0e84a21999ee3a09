package io.hooklens.core.yaml;

import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/** A sequence (block or flow). */
public final class YSeq extends YNode {
  private final int startLine;
  private final int endLine;
  /** Both columns of the range, or {@link Span#SPILLED}. */
  private final int columns;
  /**
   * The items: a node, or the text of a {@link Packed packed} scalar. When an item is packed or the columns spill,
   * the places follow the items as one more element: kept here rather than in a field, a sequence takes 32 bytes.
   */
  private final Object[] items;

  /** The items, which become this sequence's children. */
  YSeq(Range range, List<YNode> items) {
    this.startLine = range.startLine();
    this.endLine = range.endLine();
    this.columns = Span.columns(range);
    boolean anyPacked = false;
    for (YNode item : items) {
      anyPacked |= Packed.packs(item);
    }
    int[] places = anyPacked || columns == Span.SPILLED
        ? Span.withRoom(new int[anyPacked ? Packed.SIZE * items.size() : 0], columns) : null;
    this.items = new Object[items.size() + (places == null ? 0 : 1)];
    if (places != null) {
      Span.spill(places, range, columns);
      this.items[items.size()] = places;
    }
    for (int i = 0; i < items.size(); i++) {
      YNode item = items.get(i);
      boolean packed = anyPacked && Packed.packs(item);
      this.items[i] = packed ? ((YScalar) item).value() : item;
      item.attach(this);
      if (packed) {
        Packed.put(places, Packed.SIZE * i, (YScalar) item);
      }
    }
  }

  @Override
  public Range range() {
    return Span.range(startLine, endLine, columns, places());
  }

  private int[] places() {
    return items.length > 0 && items[items.length - 1] instanceof int[] p ? p : null;
  }

  /** The items; a packed scalar's node is made anew each time it is read. */
  public List<YNode> items() {
    return new Items();
  }

  private final class Items extends AbstractList<YNode> implements RandomAccess {
    @Override
    public YNode get(int i) {
      return YSeq.this.get(i);
    }

    @Override
    public int size() {
      return YSeq.this.size();
    }
  }

  public int size() {
    return places() == null ? items.length : items.length - 1;
  }

  public YNode get(int i) {
    if (i < 0 || i >= size()) {
      throw new IndexOutOfBoundsException(i);
    }
    Object item = items[i];
    return item instanceof YNode n ? n : Packed.node(places(), Packed.SIZE * i, (String) item, this);
  }

  /** The index at which this sequence first holds a node, or null. */
  Integer indexOf(YNode node) {
    for (int i = 0; i < size(); i++) {
      if (items[i] == node) {
        return i;
      }
    }
    if (node instanceof YScalar && node.parent() == this) {
      Range at = node.range();
      for (int i = 0; i < size(); i++) {
        if (items[i] instanceof String && Packed.startsAt(places(), Packed.SIZE * i, at)) {
          return i;
        }
      }
    }
    return null;
  }
}
