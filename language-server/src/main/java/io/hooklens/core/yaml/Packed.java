package io.hooklens.core.yaml;

/**
 * A scalar on one line kept by its collection as its text and two numbers instead of a node: its line, and its start
 * column, width, type and quotes in one int. Its node is made when asked for. A large file holds a scalar for every
 * 14 bytes of its text, and a node took 40 bytes.
 */
final class Packed {
  /** Numbers per packed scalar. */
  static final int SIZE = 2;
  private static final int COLUMN_BITS = 16;
  private static final int WIDTH_BITS = 11;
  private static final int KIND_SHIFT = COLUMN_BITS + WIDTH_BITS;

  private Packed() {}

  /** Whether a node packs: a scalar on one line, not too far right nor too wide, that no collection holds yet. */
  static boolean packs(YNode node) {
    if (!(node instanceof YScalar) || node.parent() != null) {
      return false;
    }
    Range at = node.range();
    int width = at.endColumn() - at.startColumn();
    return at.startLine() == at.endLine() && at.startColumn() >= 0 && at.startColumn() < 1 << COLUMN_BITS
        && width >= 0 && width < 1 << WIDTH_BITS;
  }

  static void put(int[] places, int at, YScalar scalar) {
    Range r = scalar.range();
    places[at] = r.startLine();
    places[at + 1] = r.startColumn() | (r.endColumn() - r.startColumn()) << COLUMN_BITS | scalar.kind() << KIND_SHIFT;
  }

  static YScalar node(int[] places, int at, String text, YNode parent) {
    int line = places[at];
    int start = places[at + 1] & (1 << COLUMN_BITS) - 1;
    int width = places[at + 1] >>> COLUMN_BITS & (1 << WIDTH_BITS) - 1;
    YScalar s = new YScalar(Range.of(line, start, line, start + width), text, places[at + 1] >>> KIND_SHIFT);
    s.attach(parent);
    return s;
  }

  /** Whether the scalar packed at a place starts where a range does. */
  static boolean startsAt(int[] places, int at, Range r) {
    return places[at] == r.startLine() && (places[at + 1] & (1 << COLUMN_BITS) - 1) == r.startColumn();
  }
}
