package io.hooklens.core.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ColumnsTest {
  @Test
  void wideCharactersTakeTwoColumnsAndMarksNone() {
    assertEquals(5, Columns.of("abcde"));
    assertEquals(4, Columns.of("接続"));
    assertEquals(2, Columns.of("🚀"));
    assertEquals(1, Columns.of("e\u0301"), "a combining accent adds nothing");
    assertEquals(3, Columns.of("a\u200bbc"), "a zero-width space adds nothing");
  }

  @Test
  void aFitNeverSplitsACharacterOrOverflows() {
    assertEquals(2, Columns.fit("接続を", 5), "two wide characters fit in five columns, not three");
    assertEquals(2, Columns.fit("🚀🚀", 3), "a surrogate pair is kept whole");
    assertEquals(0, Columns.fit("接", 1));
    assertEquals(3, Columns.fit("abc", 10));
  }
}
