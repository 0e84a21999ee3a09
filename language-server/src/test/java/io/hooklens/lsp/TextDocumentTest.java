package io.hooklens.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.TextDocumentContentChangeEvent;
import org.junit.jupiter.api.Test;

class TextDocumentTest {
  private static TextDocument doc(String text) {
    return new TextDocument("file:///t.yaml", "yaml", 1, text);
  }

  private static TextDocumentContentChangeEvent edit(int l1, int c1, int l2, int c2, String text) {
    return new TextDocumentContentChangeEvent(new Range(new Position(l1, c1), new Position(l2, c2)), text);
  }

  @Test
  void columnsCountUtf16UnitsSoAnEmojiTakesTwo() {
    TextDocument d = doc("a: 😀x\n").apply(2, List.of(edit(0, 5, 0, 6, "y")));
    assertEquals("a: 😀y\n", d.text());
    assertEquals(2, d.version());
  }

  @Test
  void crlfIsOneLineBreakAndColumnsPastTheLineStopBeforeIt() {
    TextDocument d = doc("ab\r\ncd\r\n").apply(2, List.of(edit(0, 99, 0, 99, "!")));
    assertEquals("ab!\r\ncd\r\n", d.text());
    d = d.apply(3, List.of(edit(0, 3, 1, 0, "")));
    assertEquals("ab!cd\r\n", d.text());
  }

  @Test
  void aLoneCarriageReturnEndsALineToo() {
    TextDocument d = doc("ab\rcd").apply(2, List.of(edit(1, 1, 1, 1, "X")));
    assertEquals("ab\rcXd", d.text());
  }

  @Test
  void aLinePastTheEndMeansTheEndOfTheText() {
    TextDocument d = doc("a\nb").apply(2, List.of(edit(7, 0, 9, 0, "\nc")));
    assertEquals("a\nb\nc", d.text());
  }

  @Test
  void changesApplyInOrderEachToTheResultOfTheLast() {
    TextDocument d = doc("one\ntwo\n").apply(2, List.of(
        edit(1, 0, 1, 3, "2"),
        edit(0, 0, 0, 3, "1"),
        new TextDocumentContentChangeEvent("whole\n"),
        edit(0, 5, 0, 5, "!")));
    assertEquals("whole!\n", d.text());
  }

  @Test
  void anInsertionAcrossLinesShiftsWhatFollows() {
    TextDocument d = doc("a: 1\nb: 2\n").apply(2, List.of(edit(0, 4, 1, 1, "\r\nx: 😀\r\nc")));
    assertEquals("a: 1\r\nx: 😀\r\nc: 2\n", d.text());
    assertEquals(4, d.lineCount());
    assertEquals(d.text().indexOf("c:"), d.offsetAt(new Position(2, 0)));
  }
}
