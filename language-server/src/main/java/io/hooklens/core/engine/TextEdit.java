package io.hooklens.core.engine;

import io.hooklens.core.yaml.Range;
import java.util.Objects;

/**
 * Replaces the text of a range with new text; an empty range inserts. Positions are those of the
 * engine (code-point columns, the byte-order mark not counted), so they convert like a finding's.
 *
 * <p>The range's four numbers are kept rather than a range object: a large file's fixes hold an edit each.
 */
public final class TextEdit {
  private final int startLine;
  private final int startColumn;
  private final int endLine;
  private final int endColumn;
  private final String newText;

  public TextEdit(Range range, String newText) {
    this.startLine = range.startLine();
    this.startColumn = range.startColumn();
    this.endLine = range.endLine();
    this.endColumn = range.endColumn();
    this.newText = Objects.requireNonNull(newText);
  }

  public Range range() {
    return Range.of(startLine, startColumn, endLine, endColumn);
  }

  public String newText() {
    return newText;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TextEdit e && startLine == e.startLine && startColumn == e.startColumn
        && endLine == e.endLine && endColumn == e.endColumn && newText.equals(e.newText);
  }

  @Override
  public int hashCode() {
    return Objects.hash(startLine, startColumn, endLine, endColumn, newText);
  }

  @Override
  public String toString() {
    return "TextEdit[range=" + range() + ", newText=" + newText + "]";
  }
}
