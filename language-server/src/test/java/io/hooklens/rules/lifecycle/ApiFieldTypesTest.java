package io.hooklens.rules.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hooklens.core.engine.Finding;
import io.hooklens.rules.RuleHarness;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The same wrongly typed values in a JSON manifest as in the YAML fixtures of HL126 and HL105. */
class ApiFieldTypesTest {
  private static List<String> findings(String name, String text) {
    return RuleHarness.lintAll(name, text).findings().stream()
        .filter(f -> List.of("HL001", "HL105", "HL126").contains(f.ruleId()))
        .map(ApiFieldTypesTest::describe).toList();
  }

  private static String describe(Finding f) {
    return f.ruleId() + "@" + (f.range().start().line() + 1) + " " + f.message();
  }

  private static String pod(String grace, String seconds, String tty) {
    return "{\n"
        + "  \"apiVersion\": \"v1\",\n"
        + "  \"kind\": \"Pod\",\n"
        + "  \"metadata\": {\"name\": \"web\"},\n"
        + "  \"spec\": {\n"
        + "    \"terminationGracePeriodSeconds\": " + grace + ",\n"
        + "    \"containers\": [{\"name\": \"app\", \"image\": \"nginx\", \"tty\": " + tty + ",\n"
        + "      \"lifecycle\": {\"preStop\": {\"sleep\": {\"seconds\": " + seconds + "}}}}]\n"
        + "  }\n"
        + "}\n";
  }

  @Test
  void aQuotedGracePeriodInJsonIsTheApisTypeError() {
    assertEquals(List.of("HL126@6 Pod.spec.terminationGracePeriodSeconds: expected integer, got string \"60\";"
        + " the API rejects it, and the hooks were not checked against the grace period — write 60 without quotes."),
        findings("pod.json", pod("\"60\"", "25", "true")));
  }

  @Test
  void aFractionalGracePeriodInJsonIsTheApisTypeError() {
    assertEquals(List.of("HL126@6 Pod.spec.terminationGracePeriodSeconds: expected integer, got number 12.5;"
        + " the API rejects it, and the hooks were not checked against the grace period."),
        findings("pod.json", pod("12.5", "5", "true")));
  }

  @Test
  void aQuotedYesInJsonIsAString() {
    assertEquals(List.of("HL126@7 Pod.spec.containers[0].tty: expected boolean, got string \"yes\"; the API"
        + " rejects it — write true or false without quotes."), findings("pod.json", pod("30", "5", "\"yes\"")));
  }

  @Test
  void octalAndYaml11WordsAreNotJson() {
    List<String> octal = findings("pod.json", pod("030", "25", "true"));
    assertEquals(1, octal.size(), octal.toString());
    assertEquals(true, octal.get(0).startsWith("HL001@6 YAML syntax error: \"030\" is not a JSON value"), octal.get(0));
    List<String> yes = findings("pod.json", pod("30", "5", "yes"));
    assertEquals(1, yes.size(), yes.toString());
    assertEquals(true, yes.get(0).contains("\"yes\" is not a JSON value (JSON strings are quoted"), yes.get(0));
    List<String> hex = findings("pod.json", pod("0x1E", "5", "true"));
    assertEquals(true, hex.get(0).startsWith("HL001@6"), hex.toString());
  }

  @Test
  void theSameValuesInYamlAreYaml11() {
    String yaml = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  terminationGracePeriodSeconds: 030\n"
        + "  containers:\n    - name: app\n      image: nginx\n      tty: yes\n      lifecycle:\n        preStop:\n"
        + "          sleep:\n            seconds: 25\n";
    assertEquals(List.of("HL105@14 sleep.seconds=25 is longer than terminationGracePeriodSeconds"
        + " (24s (kubectl reads 030 as 24)); the API rejects it."), findings("pod.yaml", yaml));
    assertEquals(List.of(), findings("pod.yaml", yaml.replace("030", "0x1E")));
  }
}
