package io.hooklens.core.yaml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class YamlReaderTest {
  private static ParsedFile read(String text) {
    return new YamlReader().read(new SourceText(text), false);
  }

  /**
   * snakeyaml-engine before 3.1.1 read past its 1024-char window when a surrogate pair straddled it
   * (fixed upstream in commit cedf62b, "handle boundary condition related to surrogate chars").
   */
  @Test
  void astralCharactersAtEveryWindowBoundaryAreRead() {
    String head = "data:\n  notes: \"";
    for (int boundary : new int[] {1024, 2048, 3072}) {
      for (int at = boundary - 8; at <= boundary + 8; at++) {
        String value = "a".repeat(at - head.length()) + "\uD83D\uDE80\u2705\uD83D\uDCDA" + "b".repeat(40);
        ParsedFile f = read(head + value + "\"\nplain: " + "c".repeat(at % 7) + "\uD83D\uDE80x\n");
        assertEquals(List.of(), f.problems(), "emoji at " + at);
        assertEquals(value, f.documents().get(0).root().asMap().map("data").scalar("notes").value());
      }
    }
  }

  @Test
  void aControlCharacterIsReportedWhereItIs() {
    for (String pad : new String[] {"", "x".repeat(1500), "\uD83D\uDE80".repeat(700)}) {
      ParsedFile f = read("a: 1\nb: \"" + pad + "\u001B[2J\"\n");
      ParseProblem p = f.problems().get(0);
      assertEquals(new Position(1, 4 + pad.codePointCount(0, pad.length())), p.range().start(), pad);
      assertTrue(p.message().startsWith("the control character U+001B is not allowed"), p.message());
    }
    ParsedFile later = read("a: 1\n---\nb: \u0007\n");
    assertEquals(new Position(2, 3), later.problems().get(0).range().start());
  }

  @Test
  void keysAndValuesHaveExactRanges() {
    ParsedFile f = read("a:\n  bb: \"x\"\n  c: [1, 2]\n");
    YMap a = f.documents().get(0).root().asMap().map("a");
    YMap.Entry bb = a.entry("bb");
    assertEquals(Range.of(1, 2, 1, 4), bb.key().range());
    assertEquals(Range.of(1, 6, 1, 9), bb.value().range());
    assertEquals("a.c[1]", a.seq("c").get(1).path());
  }

  /**
   * Collections keep their columns in 16 bits and scalars pack only so far right and so wide: past that (a minified
   * file's one long line) the reader's numbers must come back unchanged.
   */
  @Test
  void rangesFarRightOnALongLineAndWideScalarsAreExact() {
    String pad = "p".repeat(70_000);
    String wide = "w".repeat(3_000);
    String text = "{pad: " + pad + ", m: {k: v, s: [a, \"" + wide + "\", &x 1, *x]}, n: [*x]}\n";
    ParsedFile f = read(text);
    assertEquals(List.of(), f.problems());
    YMap root = f.documents().get(0).root().asMap();
    YMap inner = root.map("m");
    assertEquals(Range.of(0, text.indexOf("{k"), 0, text.indexOf("]}") + 2), inner.range());
    YSeq s = inner.seq("s");
    assertEquals(Range.of(0, text.indexOf("[a"), 0, text.indexOf("]}") + 1), s.range());
    assertEquals(Range.of(0, text.indexOf("v,"), 0, text.indexOf("v,") + 1), inner.entry("k").value().range());
    int quote = text.indexOf('"');
    assertEquals(Range.of(0, quote, 0, quote + wide.length() + 2), s.get(1).range());
    assertEquals(wide, s.get(1).asScalar().value());
    assertEquals("m.s[1]", s.get(1).path());
    assertEquals("m.s[2]", s.get(2).path());
    assertEquals("m.s[2]", root.seq("n").get(0).path(), "an alias is the node its anchor names");
    assertEquals("m.k", inner.entry("k").value().path());
    assertEquals("m.k", inner.entry("k").key().path());
    assertEquals(Range.of(0, 6, 0, 6 + pad.length()), root.entry("pad").value().range());
  }

  @Test
  void scalarsAreTypedAsKubernetesReadsThem() {
    YMap m = read("a: 5\nb: \"5\"\nc: yes\nd: ~\ne: 1.5\nf: 0x1F\ng: !!str 7\nh: |\n  5\n").documents().get(0)
        .root().asMap();
    assertEquals(YScalar.Type.INT, m.scalar("a").type());
    assertEquals(YScalar.Type.STRING, m.scalar("b").type());
    assertEquals(YScalar.Type.BOOL, m.scalar("c").type());
    assertEquals(YScalar.Type.NULL, m.scalar("d").type());
    assertEquals(YScalar.Type.FLOAT, m.scalar("e").type());
    assertEquals(31L, m.scalar("f").asLong().getAsLong());
    assertEquals(YScalar.Type.STRING, m.scalar("g").type());
    assertEquals(YScalar.Type.STRING, m.scalar("h").type());
  }

  @Test
  void mergeKeysAndAliasesResolve() {
    YMap m = read("base: &b {x: 1, y: 2}\nitem:\n  <<: *b\n  y: 3\n").documents().get(0).root().asMap();
    YMap item = m.map("item");
    assertEquals("1", item.string("x"));
    assertEquals("3", item.string("y"));
    assertFalse(item.entries().stream().anyMatch(e -> e.key().value().equals("<<")));
  }

  @Test
  void flowStyleWithTrailingCommasIsYaml() {
    ParsedFile f = read("{ apiVersion: \"v1\", kind: \"Pod\", metadata: { name: \"x\", }, }\n");
    assertEquals(List.of(), f.problems());
    assertEquals("Pod", f.documents().get(0).root().asMap().string("kind"));
  }

  @Test
  void documentsAreIndexedAcrossSyntaxErrors() {
    ParsedFile f = read("a: 1\n---\nb: [\n---\nc: 3\n");
    assertEquals(3, f.documents().size());
    assertEquals(List.of(0, 1, 2), f.documents().stream().map(YamlDocument::index).toList());
    assertTrue(f.documents().get(1).root() == null);
    assertEquals("3", f.documents().get(2).root().asMap().string("c"));
    assertEquals(4, f.documents().get(2).root().range().start().line());
  }

  @Test
  void duplicateKeysAreReportedAndTheLastWins() {
    ParsedFile f = read("a: 1\na: 2\n");
    assertEquals(1, f.problems().size());
    assertEquals(ParseProblem.Kind.DUPLICATE_KEY, f.problems().get(0).kind());
    assertEquals("2", f.documents().get(0).root().asMap().string("a"));
  }

  @Test
  void emptyNestedBlockScalarsAreEmptyStrings() {
    ParsedFile f = read("data:\n  script: |-\n  other: |\nkind: ConfigMap\n");
    assertEquals(List.of(), f.problems());
    YMap data = f.documents().get(0).root().asMap().map("data");
    assertEquals("", data.string("script"));
    assertEquals("ConfigMap", f.documents().get(0).root().asMap().string("kind"));
    assertEquals(3, f.documents().get(0).root().asMap().entry("kind").key().range().start().line());
  }

  /** The scan for a document marker finds what a multi-line pattern finds, at every line break Java knows. */
  @Test
  void markerScanAgreesWithThePattern() {
    Pattern marker = Pattern.compile("(?m)^(---|\\.\\.\\.)(?=[ \\t]|\\r?$)");
    char[] alphabet = {'-', '-', '-', '.', '.', ' ', '\t', '\n', '\r', '\u0085', '\u2028', '\u2029', 'a', '#'};
    Random random = new Random(7);
    for (int n = 0; n < 20_000; n++) {
      char[] chars = new char[random.nextInt(12)];
      for (int i = 0; i < chars.length; i++) {
        chars[i] = alphabet[random.nextInt(alphabet.length)];
      }
      String text = new String(chars);
      for (int from = 0; from <= text.length(); from++) {
        Matcher m = marker.matcher(text);
        int start = from;
        int expected = m.find(start) ? m.start() : -1;
        assertEquals(expected, YamlReader.markerFrom(text, start), () -> "from " + start + " in " + escape(text));
      }
    }
  }

  @Test
  void codePointsAreNamedAsUnicodeWritesThem() {
    for (int c : new int[] {0, 0x1B, 0x7F, 0x85, 0xFFFE, 0x1F680, 0x10FFFF}) {
      assertEquals(String.format(Locale.ROOT, "U+%04X", c), YamlReader.codePointName(c));
    }
  }

  private static String escape(String text) {
    StringBuilder sb = new StringBuilder();
    text.chars().forEach(c -> sb.append(c < 0x20 || c > 0x7E ? String.format("\\u%04x", c) : String.valueOf((char) c)));
    return sb.toString();
  }
}
