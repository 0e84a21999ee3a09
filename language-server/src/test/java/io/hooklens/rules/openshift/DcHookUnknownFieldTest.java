package io.hooklens.rules.openshift;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hooklens.core.engine.Finding;
import io.hooklens.rules.RuleHarness;
import java.util.List;
import org.junit.jupiter.api.Test;

/** HL323 in JSON, where fixture markers cannot go: the whole message and the position, one-based. */
class DcHookUnknownFieldTest {
  /** origin's test-deployment-hook.yaml as a JSON Template of the legacy v1 group. */
  private static final String TEMPLATE = """
      {
        "kind": "Template",
        "apiVersion": "v1",
        "metadata": {"name": "deployment-test"},
        "objects": [
          {
            "kind": "DeploymentConfig",
            "apiVersion": "v1",
            "metadata": {"name": "deployment-test"},
            "spec": {
              "strategy": {
                "type": "Rolling",
                "rollingParams": {
                  "pre": {
                    "failurePolicy": "Abort",
                    "execNewPod": {
                      "containerName": "myapp",
                      "command": ["/bin/sh", "-c"],
                      "args": ["echo", "test pre hook executed"]
                    }
                  }
                }
              },
              "template": {"spec": {"containers": [{"name": "myapp", "image": "busybox"}]}}
            }
          }
        ]
      }
      """;

  /** A List of apps.openshift.io/v1 DeploymentConfigs, written on few lines. */
  private static final String LIST = """
      {"kind": "List", "apiVersion": "v1", "items": [
        {"kind": "DeploymentConfig", "apiVersion": "apps.openshift.io/v1", "metadata": {"name": "web"},
         "spec": {"strategy": {"type": "Recreate", "recreateParams": {
           "mid": {"failurePolicy": "Ignore", "tagImages": [{"containerName": "web", "to": {"nmae": "web:ok"}}]},
           "post": {"failurePolicy": "Ignore", "execNewPod": {"containerName": "web", "command": ["./notify.sh"],
             "${EXTRA}": []}}}},
          "template": {"spec": {"containers": [{"name": "web", "image": "web"}]}}}}
      ]}
      """;

  private static List<Finding> findings(String text) {
    return RuleHarness.lintWithOnly("HL323", "x.json", text).findings();
  }

  private static String position(Finding f) {
    return (f.range().start().line() + 1) + ":" + (f.range().start().column() + 1);
  }

  @Test
  void argsAfterAShellsDashCSaysTheHookRunsNoScript() {
    List<Finding> found = findings(TEMPLATE);
    assertEquals(List.of("19:17"), found.stream().map(DcHookUnknownFieldTest::position).toList());
    assertEquals("Unknown field \"args\" in spec.strategy.rollingParams.pre.execNewPod: execNewPod has no args"
        + " (only the 2015 design proposal had them); the API server drops it (with an \"unknown field\" warning),"
        + " and kubectl or oc apply, whose --validate is strict by default, refuses the object. The hook runs"
        + " \"/bin/sh -c\" with no script, which fails; put the script at the end of command.",
        found.get(0).message());
  }

  @Test
  void aMisspeltFieldDeepInAListItemGetsADidYouMeanAndATemplatedKeyIsUnknownNotWrong() {
    List<Finding> found = findings(LIST);
    assertEquals(List.of("4:87"), found.stream().map(DcHookUnknownFieldTest::position).toList());
    assertEquals("Unknown field \"nmae\" in spec.strategy.recreateParams.mid.tagImages[0].to (did you mean name?):"
        + " the API server drops it (with an \"unknown field\" warning), and kubectl or oc apply, whose --validate"
        + " is strict by default, refuses the object.", found.get(0).message());
  }
}
