package io.hooklens.lsp;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.TextEdit;

/**
 * A text with a cursor marked by {@code ‸}, as tests write it: the text without the marker and the
 * marker's LSP position (UTF-16 columns).
 */
record Cursor(String text, Position position) {
  static final String MARK = "‸";

  static Cursor of(String marked) {
    int at = marked.indexOf(MARK);
    assertTrue(at >= 0 && marked.indexOf(MARK, at + 1) < 0, "one cursor mark in the text");
    String before = marked.substring(0, at);
    int line = (int) before.chars().filter(c -> c == '\n').count();
    int column = before.length() - (before.lastIndexOf('\n') + 1);
    return new Cursor(before + marked.substring(at + MARK.length()), new Position(line, column));
  }

  /** The text after an edit, as a client applies it. */
  String apply(TextEdit edit) {
    return text.substring(0, offset(text, edit.getRange().getStart())) + edit.getNewText()
        + text.substring(offset(text, edit.getRange().getEnd()));
  }

  private static int offset(String text, Position p) {
    int off = 0;
    for (int line = 0; line < p.getLine(); line++) {
      off = text.indexOf('\n', off) + 1;
    }
    return off + p.getCharacter();
  }
}
