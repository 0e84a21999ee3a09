package io.hooklens.core.yaml;

/** A half-open source range between two positions. */
public record Range(Position start, Position end) {
  public static Range of(int startLine, int startColumn, int endLine, int endColumn) {
    return new Range(new Position(startLine, startColumn), new Position(endLine, endColumn));
  }

  /** An empty range at one position. */
  public static Range at(int line, int column) {
    Position p = new Position(line, column);
    return new Range(p, p);
  }

  public boolean contains(Range other) {
    return start.compareTo(other.start) <= 0 && end.compareTo(other.end) >= 0;
  }
}
