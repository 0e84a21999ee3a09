package io.hooklens.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.hooklens.core.engine.StrVals.Index;
import io.hooklens.core.engine.StrVals.Name;
import io.hooklens.core.engine.StrVals.Pair;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Helm's --set syntax, read as Helm reads it; what Helm refuses, or silently drops, is refused. */
class StrValsTest {
  @Test
  void pairsKeysListsAndEscapes() {
    StrVals.Parsed p = StrVals.parse("a=b,servers[0].port=80,name={x, y},sel.kubernetes\\.io/role=m\\,n,e=");
    assertNull(p.error());
    assertEquals(List.of(
        new Pair(List.of(new Name("a")), List.of("b"), false),
        new Pair(List.of(new Name("servers"), new Index(0), new Name("port")), List.of("80"), false),
        new Pair(List.of(new Name("name")), List.of("x", " y"), true),
        new Pair(List.of(new Name("sel"), new Name("kubernetes.io/role")), List.of("m,n"), false),
        new Pair(List.of(new Name("e")), List.of(""), false)), p.pairs());
    assertEquals(List.of(), StrVals.parse("").pairs());
    assertEquals(1, StrVals.parse("a=1,").pairs().size(), "a trailing comma ends the last pair, as in Helm");
  }

  @Test
  void writingEscapesWhatReadingResolved() {
    String argument = "a\\.b[2][0].c={x\\,y,\\{z\\}},d=\\\\";
    List<Pair> pairs = StrVals.parse(argument).pairs();
    assertEquals(pairs, StrVals.parse(StrVals.write(pairs)).pairs());
    assertEquals("a\\.b[2][0].c={x\\,y,\\{z\\}},d=\\\\", StrVals.write(pairs));
  }

  @Test
  void whatHelmRefusesIsRefusedWithHelmsReason() {
    assertRefused(Map.of(
        "a[x]=1", "error parsing index: \"x\" is not a number",
        "a={x,y", "list must terminate with '}'",
        "a", "key \"a\" has no value",
        "a,b=1", "key \"a\" has no value (cannot end with ,)",
        "a[0]x=1", "unexpected data at end of array index: \"x\"",
        "a[-1]=1", "negative -1 index not allowed",
        "a[65537]=1", "index of 65537 is greater than maximum supported index of 65536",
        "a" + ".a".repeat(31) + "=1", "value name nested level is greater than maximum supported nested level of 30"));
  }

  @Test
  void whatHelmSilentlyDropsIsRefused() {
    assertRefused(Map.of(
        "=1", "empty key before \"=\"",
        "[0]=1", "empty key before \"[\"",
        "a..b=1", "empty key before \".\"",
        "a.", "key \"a\" has no value",
        "a[0]", "key \"a[0]\" has no value"));
  }

  private static void assertRefused(Map<String, String> errors) {
    errors.forEach((argument, error) -> assertEquals(error, StrVals.parse(argument).error(), argument));
  }
}
