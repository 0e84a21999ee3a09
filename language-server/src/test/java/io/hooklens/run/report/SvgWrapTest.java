package io.hooklens.run.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.core.text.TerminalColumns;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Lines are measured in columns, so that wide characters do not run off the image. */
class SvgWrapTest {
  @Test
  void aLineOfWideCharactersWrapsAtHalfAsManyCharacters() {
    List<String> lines = SvgTimeline.wrap("接続を閉じています".repeat(10), 20, "  ");
    assertTrue(lines.size() >= 9, lines.toString());
    for (String line : lines) {
      assertTrue(TerminalColumns.of(line) <= 20, line + " takes " + TerminalColumns.of(line) + " columns");
    }
    assertEquals("接続を閉じています".repeat(10), String.join("", lines).replace(" ", ""));
  }

  @Test
  void wordsStillBreakAtSpaces() {
    assertEquals(List.of("preStop was", "  cut off"), SvgTimeline.wrap("preStop was cut off", 12, "  "));
  }
}
