package io.hooklens.rules.openshift;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hooklens.core.engine.Finding;
import io.hooklens.rules.RuleHarness;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * DeploymentConfigs are mostly published as JSON Templates, which the fixture markers cannot annotate: these
 * tests pin the exact position of findings in JSON, one-based as an editor shows them.
 */
class JsonFormTest {
  private static final String TEMPLATE = """
      {
        "kind": "Template",
        "apiVersion": "v1",
        "metadata": {"name": "cakephp-mysql-example"},
        "objects": [
          {
            "kind": "DeploymentConfig",
            "apiVersion": "v1",
            "metadata": {"name": "${NAME}"},
            "spec": {
              "strategy": {
                "type": "Rolling",
                "recreateParams": {
                "pre": {
                    "failurePolicy": "retry",
                    "execNewPod": {
                      "command": ["./migrate-database.sh"],
                      "containerName": "${NAME}"
                    }
                  }
                },
                "rollingParams": {
                  "post": {
                    "failurePolicy": "abort",
                    "execNewPod": {"command": ["./notify.sh"], "containerName": "${NAME}"}
                  }
                }
              },
              "template": {
                "spec": {"containers": [{"name": "${NAME}", "image": "cakephp-mysql-example"}]}
              }
            }
          }
        ]
      }
      """;

  /** Tab-indented, as openshift/library publishes its templates. */
  private static final String DEPLOYMENT = "{\n"
      + "\t\"kind\": \"Deployment\",\n"
      + "\t\"apiVersion\": \"apps/v1\",\n"
      + "\t\"metadata\": {\"name\": \"web\"},\n"
      + "\t\"spec\": {\n"
      + "\t\t\"strategy\": {\n"
      + "\t\t\t\"recreateParams\": {\n"
      + "\t\t\t\t\"pre\": {\n"
      + "\t\t\t\t\t\"execNewPod\": {\"command\": [\"./migrate-database.sh\"], \"containerName\": \"web\"},\n"
      + "\t\t\t\t\t\"failurePolicy\": \"Retry\"\n"
      + "\t\t\t\t}\n"
      + "\t\t\t}\n"
      + "\t\t},\n"
      + "\t\t\"template\": {\"spec\": {\"containers\": [{\"name\": \"web\", \"image\": \"web\"}]}}\n"
      + "\t}\n"
      + "}\n";

  private static List<String> positions(String ruleId, String text) {
    return RuleHarness.lintWithOnly(ruleId, "x.json", text).findings().stream()
        .map(JsonFormTest::position)
        .toList();
  }

  private static String position(Finding f) {
    return (f.range().start().line() + 1) + ":" + (f.range().start().column() + 1);
  }

  @Test
  void inactiveParamsBlockIsReportedOnItsKey() {
    assertEquals(List.of("13:11"), positions("HL311", TEMPLATE));
  }

  @Test
  void failurePolicyIsReportedOnItsValueOnlyInTheBlockTheStrategyUses() {
    List<Finding> found = RuleHarness.lintWithOnly("HL302", "x.json", TEMPLATE).findings();
    assertEquals(List.of("24:32"), found.stream().map(JsonFormTest::position).toList());
    assertEquals("24:39", (found.get(0).range().end().line() + 1) + ":" + (found.get(0).range().end().column() + 1));
  }

  @Test
  void hookOnADeploymentIsReportedOnItsPhaseKeyWithTabsCountedAsOneColumn() {
    assertEquals(List.of("8:5"), positions("HL322", DEPLOYMENT));
  }
}
