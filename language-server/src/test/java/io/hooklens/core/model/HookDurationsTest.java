package io.hooklens.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hooklens.core.yaml.SourceText;
import io.hooklens.core.yaml.YamlReader;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HookDurationsTest {
  private static Duration of(String commandFlow) {
    var parsed = new YamlReader().read(new SourceText("command: " + commandFlow + "\n"), false);
    return HookDurations.ofCommand(parsed.documents().get(0).root().asMap().get("command"));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
      "[\"sleep\", \"10\"]                                  | 10s",
      "[\"/bin/sleep\", \"1m\", \"30s\"]                      | 90s",
      "[\"busybox\", \"sleep\", \"0.5\"]                      | 0.5s",
      "[\"sleep\", \"infinity\"]                            | unbounded time",
      "[\"sleep\", \"$(DELAY)\"]                            | at least 0s",
      "[\"/bin/sh\", \"-c\", \"sleep 5 && nginx -s quit\"]   | at least 5s",
      "[\"sh\", \"-c\", \"sleep 5; sleep 10\"]                | 15s",
      "[\"sh\", \"-c\", \"sleep 100 & kill 1\"]               | at least 0s",
      "[\"bash\", \"-ec\", \"sleep 2h\"]                      | 7200s",
      "[\"sh\", \"-c\", \"while true; do sleep 1; done\"]    | unbounded time",
      "[\"sh\", \"-c\", \"while true; do sleep 1; [ -f /x ] && break; done\"] | at least 1s",
      "[\"sh\", \"-c\", \"tail -f /dev/null\"]                | unbounded time",
      "[\"nginx\", \"-s\", \"quit\"]                          | at least 0s",
      "\"sleep 5\"                                        | at least 0s",
  })
  void estimates(String command, String expected) {
    assertEquals(expected.trim(), of(command.trim()).describe());
  }
}
