package io.hooklens.core.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TerminalColumnsTest {
  @Test
  void wideCharactersTakeTwoColumnsAndMarksNone() {
    assertEquals(5, TerminalColumns.of("abcde"));
    assertEquals(4, TerminalColumns.of("接続"));
    assertEquals(2, TerminalColumns.of("🚀"));
    assertEquals(1, TerminalColumns.of("e\u0301"), "a combining accent adds nothing");
    assertEquals(3, TerminalColumns.of("a\u200bbc"), "a zero-width space adds nothing");
  }

  @Test
  void aFitNeverSplitsACharacterOrOverflows() {
    assertEquals(2, TerminalColumns.fit("接続を", 5), "two wide characters fit in five columns, not three");
    assertEquals(2, TerminalColumns.fit("🚀🚀", 3), "a surrogate pair is kept whole");
    assertEquals(0, TerminalColumns.fit("接", 1));
    assertEquals(3, TerminalColumns.fit("abc", 10));
  }
}
