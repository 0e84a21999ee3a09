package io.hooklens.core.yaml;

/** A zero-based line and column; columns count Unicode code points, as snakeyaml-engine does. */
public record Position(int line, int column) implements Comparable<Position> {
  @Override
  public int compareTo(Position o) {
    return line != o.line ? Integer.compare(line, o.line) : Integer.compare(column, o.column);
  }
}
