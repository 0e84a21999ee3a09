package io.hooklens.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The values Helm's refusals name as missing, and the values file that gives them. */
class PlaceholdersTest {
  private static List<String> named(String message) {
    return Placeholders.named(message).stream().map(p -> p.name() + (p.map() ? " {}" : "")).toList();
  }

  @Test
  void aRequiredValueNamedInItsMessage() {
    assertEquals(List.of(".Values.superuserPassword"), named("execution error at (stolon/templates/secret.yaml:14:21):"
        + " A valid .Values.superuserPassword entry is required!"));
  }

  @Test
  void aFailThatQuotesTheValuesPath() {
    assertEquals(List.of(".Values.image.repository"), named("execution error at (otel/templates/NOTES.txt:2:3):"
        + " [ERROR] 'image.repository' must be set. See https://example.com/UPGRADING.md for instructions."));
  }

  @Test
  void aMapThatIsNotThereGetsEveryMapDownToTheValueRead() {
    assertEquals(List.of(".Values.minio.service {}"), named("template: logs/templates/_helpers.tpl:84:78: executing"
        + " \"logs.minio\" at <.Values.minio.service.port>: nil pointer evaluating interface {}.service"));
  }

  @Test
  void aMissingValueAFunctionNeedsAsText() {
    assertEquals(List.of(".Values.executor"), named("template: airflow/templates/worker/vpa.yaml:6:49: executing"
        + " \"airflow/templates/worker/vpa.yaml\" at <.Values.executor>: wrong type for value; expected string; got"
        + " interface {}"));
  }

  @Test
  void aMessageThatNamesNoValueGivesNone() {
    assertEquals(List.of(), named("execution error at (temporal/templates/server-secret.yaml:1:25): No valid driver"
        + " configured for default store"));
    assertEquals(List.of(), named("parse error at (broken/templates/configmap.yaml:4): unexpected \"}\" in operand"));
  }

  @Test
  void theValuesFileNestsThePathsAndADeeperOneWins() {
    List<Placeholders.Placeholder> given = List.of(new Placeholders.Placeholder(List.of("a", "b"), true),
        new Placeholders.Placeholder(List.of("a", "b", "c"), false),
        new Placeholders.Placeholder(List.of("password"), false));
    assertEquals("{\"a\":{\"b\":{\"c\":\"placeholder\"}},\"password\":\"placeholder\"}\n",
        Placeholders.valuesFile(given));
  }
}
