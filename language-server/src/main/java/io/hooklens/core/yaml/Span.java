package io.hooklens.core.yaml;

/**
 * The range of a map or sequence in three numbers: its start and end lines, and both columns in one int when they fit
 * in 16 bits each. Columns that do not (a collection on a very long line) are kept in two more numbers at the end of
 * the collection's array of places. Without a fourth field a collection node takes 32 bytes instead of 40.
 */
final class Span {
  /** The packed columns of a span whose columns are at the end of the places. */
  static final int SPILLED = -1;
  private static final int COLUMN_BITS = 16;
  private static final int COLUMN_MASK = (1 << COLUMN_BITS) - 1;

  private Span() {}

  /** Both columns of a range in one int, or {@link #SPILLED}. */
  static int columns(Range r) {
    boolean fits = r.startColumn() >= 0 && r.startColumn() <= COLUMN_MASK && r.endColumn() >= 0
        && r.endColumn() < COLUMN_MASK;
    return fits ? r.startColumn() | r.endColumn() << COLUMN_BITS : SPILLED;
  }

  /** Places with room for spilled columns added at their end when a range needs it. */
  static int[] withRoom(int[] places, int columns) {
    return columns == SPILLED ? java.util.Arrays.copyOf(places, places.length + 2) : places;
  }

  /** Writes a spilled range's columns at the end of places made {@link #withRoom with room}. */
  static void spill(int[] places, Range r, int columns) {
    if (columns == SPILLED) {
      places[places.length - 2] = r.startColumn();
      places[places.length - 1] = r.endColumn();
    }
  }

  /** The number of places that are spilled columns rather than items'. */
  static int spilled(int columns) {
    return columns == SPILLED ? 2 : 0;
  }

  static Range range(int startLine, int endLine, int columns, int[] places) {
    if (columns == SPILLED) {
      return Range.of(startLine, places[places.length - 2], endLine, places[places.length - 1]);
    }
    return Range.of(startLine, columns & COLUMN_MASK, endLine, columns >>> COLUMN_BITS);
  }
}
