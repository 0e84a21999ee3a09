package io.hooklens.core.yaml;

import java.util.Objects;

/**
 * A half-open source range between two positions. Its four numbers are kept, and its positions made when asked for:
 * a range of two position objects took 72 bytes, and a large file's findings and fixes hold hundreds of thousands of
 * ranges.
 */
public final class Range {
  private final int startLine;
  private final int startColumn;
  private final int endLine;
  private final int endColumn;

  public Range(Position start, Position end) {
    this(start.line(), start.column(), end.line(), end.column());
  }

  private Range(int startLine, int startColumn, int endLine, int endColumn) {
    this.startLine = startLine;
    this.startColumn = startColumn;
    this.endLine = endLine;
    this.endColumn = endColumn;
  }

  public static Range of(int startLine, int startColumn, int endLine, int endColumn) {
    return new Range(startLine, startColumn, endLine, endColumn);
  }

  /** An empty range at one position. */
  public static Range at(int line, int column) {
    return new Range(line, column, line, column);
  }

  public Position start() {
    return new Position(startLine, startColumn);
  }

  public Position end() {
    return new Position(endLine, endColumn);
  }

  public int startLine() {
    return startLine;
  }

  public int startColumn() {
    return startColumn;
  }

  public int endLine() {
    return endLine;
  }

  public int endColumn() {
    return endColumn;
  }

  public boolean contains(Range other) {
    return compare(startLine, startColumn, other.startLine, other.startColumn) <= 0
        && compare(endLine, endColumn, other.endLine, other.endColumn) >= 0;
  }

  /** Orders by start, as {@link Position#compareTo} orders positions, without making them. */
  public int compareStart(Range other) {
    return compare(startLine, startColumn, other.startLine, other.startColumn);
  }

  private static int compare(int line, int column, int otherLine, int otherColumn) {
    return line != otherLine ? Integer.compare(line, otherLine) : Integer.compare(column, otherColumn);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Range r && startLine == r.startLine && startColumn == r.startColumn && endLine == r.endLine
        && endColumn == r.endColumn;
  }

  @Override
  public int hashCode() {
    return Objects.hash(startLine, startColumn, endLine, endColumn);
  }

  @Override
  public String toString() {
    return "Range[start=" + start() + ", end=" + end() + "]";
  }
}
