package io.hooklens.core.yaml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Plain scalars as go-yaml v2 (resolve.go), which kubectl and Helm read manifests with, resolves them. */
class ScalarsTest {
  private static YScalar scalar(String plain) {
    return new YamlReader().read(new SourceText("v: " + plain + "\n"), false).documents().get(0).root().asMap()
        .scalar("v");
  }

  @ParameterizedTest(name = "{0} is {1} {2}")
  @CsvSource(delimiter = '|', value = {
      "030     | INT   | 24",
      "+030    | INT   | 24",
      "-030    | INT   | -24",
      "0o30    | INT   | 24",
      "0x1E    | INT   | 30",
      "0X1e    | INT   | 30",
      "-0x1E   | INT   | -30",
      "0b11110 | INT   | 30",
      "1_000   | INT   | 1000",
      "0_30    | INT   | 24",
      "0       | INT   | 0",
      "00      | INT   | 0",
      "+60     | INT   | 60",
      "08      | FLOAT | 8",
      "019     | FLOAT | 19",
      "30.0    | FLOAT | 30",
      "3e1     | FLOAT | 30",
      "12.5    | FLOAT | ",
      ".5      | FLOAT | ",
      ".inf    | FLOAT | ",
      "-.Inf   | FLOAT | ",
      ".NaN    | FLOAT | ",
      "1:30    | STRING | ",
      "0x      | STRING | ",
      "0b12    | STRING | ",
      "0o8     | STRING | ",
      "._5     | STRING | ",
      "2024-01-02 | STRING | ",
      "1_0.5   | FLOAT | ",
      "yes     | BOOL  | ",
      "Y       | BOOL  | ",
      "n       | BOOL  | ",
      "On      | BOOL  | ",
      "OFF     | BOOL  | ",
      "yEs     | STRING | ",
      "~       | NULL  | ",
      "Null    | NULL  | ",
      "nil     | STRING | "
  })
  void plainScalarsResolveAsGoYamlV2Does(String plain, YScalar.Type type, Long integer) {
    YScalar s = scalar(plain);
    assertEquals(type, s.type(), plain);
    assertEquals(integer == null ? OptionalLong.empty() : OptionalLong.of(integer), s.asLong(), plain);
  }

  @Test
  void integersPastInt64AreUnsignedOrFloats() {
    assertEquals(YScalar.Type.INT, scalar("18446744073709551615").type());
    assertEquals(OptionalLong.empty(), scalar("18446744073709551615").asLong());
    assertEquals(YScalar.Type.FLOAT, scalar("18446744073709551616").type());
    assertEquals(YScalar.Type.STRING, scalar("0x10000000000000000").type());
    assertEquals(YScalar.Type.FLOAT, scalar("-9223372036854775809").type());
  }

  @Test
  void quotedAndBlockScalarsAreStrings() {
    assertEquals(YScalar.Type.STRING, scalar("\"030\"").type());
    assertEquals(YScalar.Type.STRING, scalar("'yes'").type());
    assertEquals(OptionalLong.empty(), scalar("\"60\"").asLong());
  }

  @Test
  void jsonCarriesTheValuesKubectlSends() {
    JsonNode j = JsonTree.of(new YamlReader().read(new SourceText(
        "a: 030\nb: 30.0\nc: 'on'\nd: off\ne: 0x1E\nf: 12.5\ng: 1e22\n"), false).documents().get(0).root());
    assertEquals("{\"a\":24,\"b\":30,\"c\":\"on\",\"d\":false,\"e\":30,\"f\":12.5,\"g\":1.0E22}", j.toString());
    assertTrue(j.get("b").isIntegralNumber());
  }

  @Test
  void jsonLiteralsAreJsonsOwn() {
    for (String ok : List.of("0", "-1", "30", "12.5", "1e3", "-0.5E-2", "true", "false", "null")) {
      assertTrue(Scalars.isJsonLiteral(ok), ok);
    }
    for (String bad : List.of("030", "+1", "0x1E", "1_000", ".5", "yes", "True", "~", "", "NaN")) {
      assertFalse(Scalars.isJsonLiteral(bad), bad);
    }
  }

  @Test
  void aJsonFileRefusesWhatIsNotJsonAsKubectlDoes() {
    String json = "{\n  \"a\": 030,\n  \"b\": \"yes\"\n}\n";
    ParsedFile f = new YamlReader().read(new SourceText(json), true);
    assertEquals(1, f.problems().size(), f.problems().toString());
    ParseProblem p = f.problems().get(0);
    assertEquals(ParseProblem.Kind.SYNTAX, p.kind());
    assertEquals(1, p.range().start().line());
    assertTrue(p.message().contains("\"030\" is not a JSON value"), p.message());
    assertNull(f.documents().get(0).root());
    // The same text as YAML, or a .json file kubectl reads as YAML (it does not start with {), is YAML 1.1.
    assertEquals(24L, new YamlReader().read(new SourceText(json), false).documents().get(0).root().asMap()
        .scalar("a").asLong().getAsLong());
    ParsedFile yamlInJson = new YamlReader().read(new SourceText("a: 030\nb: yes\n"), true);
    assertEquals(List.of(), yamlInJson.problems());
    assertEquals(YScalar.Type.BOOL, yamlInJson.documents().get(0).root().asMap().scalar("b").type());
  }

  @Test
  void aTemplatedJsonValueIsUnknownNotWrong() {
    String masked = TemplateMask.maskAndTrack("{\"a\": {{ .Values.grace }}, \"b\": 1}\n").text();
    ParsedFile f = new YamlReader().read(new SourceText(masked), true);
    assertEquals(List.of(), f.problems());
    assertTrue(f.documents().get(0).root().asMap().scalar("a").isTemplated());
  }

  @Test
  void validJsonReadsTheSameEitherWay() {
    String json = "{\"spec\": {\"terminationGracePeriodSeconds\": 30, \"tty\": true, \"x\": null, \"f\": 1.5,"
        + " \"s\": \"yes\"}}";
    ParsedFile f = new YamlReader().read(new SourceText(json), true);
    assertEquals(List.of(), f.problems());
    YMap spec = f.documents().get(0).root().asMap().map("spec");
    assertEquals(30L, spec.scalar("terminationGracePeriodSeconds").asLong().getAsLong());
    assertEquals(YScalar.Type.BOOL, spec.scalar("tty").type());
    assertEquals(YScalar.Type.NULL, spec.scalar("x").type());
    assertEquals(YScalar.Type.STRING, spec.scalar("s").type());
  }
}
