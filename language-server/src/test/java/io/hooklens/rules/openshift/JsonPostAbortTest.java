package io.hooklens.rules.openshift;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.core.engine.Finding;
import io.hooklens.core.engine.LintResult;
import io.hooklens.rules.RuleHarness;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * HL314 on a JSON Template, where fixtures cannot carry expect comments: a post hook with Abort is reported on
 * the policy's value in both forms, each with its own message, at exact positions (one-based below). One line
 * is indented with a tab, which JSON allows, to pin that columns after it stay true.
 */
class JsonPostAbortTest {
  private static final String TEMPLATE = """
      {
        "apiVersion": "template.openshift.io/v1",
        "kind": "Template",
        "metadata": {"name": "shop"},
        "objects": [
          {
            "apiVersion": "apps.openshift.io/v1",
            "kind": "DeploymentConfig",
            "metadata": {"name": "${NAME}"},
            "spec": {
              "strategy": {
                "type": "Recreate",
                "recreateParams": {
            \t    "post": {
                    "failurePolicy": "Abort",
                    "execNewPod": {"containerName": "${NAME}", "command": ["./run.sh"]}
                  }
                }
              }
            }
          },
          {
            "apiVersion": "v1",
            "kind": "DeploymentConfig",
            "metadata": {"name": "proposal"},
            "spec": {
              "strategy": {
                "lifecycle": {
                  "pre": {"failurePolicy": "Retry", "execNewPod": {"containerName": "app", "command": ["migrate"]}},
                  "post": {"failurePolicy": "Abort", "execNewPod": {"containerName": "app", "command": ["notify"]}}
                }
              }
            }
          }
        ],
        "parameters": [{"name": "NAME", "value": "shop"}]
      }
      """;

  @Test
  void postAbortIsReportedOnThePolicyValueInBothForms() {
    LintResult result = RuleHarness.lintWithOnly("HL314", "x.json", TEMPLATE);
    assertEquals(List.of(), result.failures());
    List<Finding> findings = result.findings();
    assertEquals(2, findings.size(), findings.toString());

    Finding params = findings.get(0);
    assertEquals(15, params.range().start().line() + 1);
    assertEquals(32, params.range().start().column() + 1);
    assertEquals(15, params.range().end().line() + 1);
    assertEquals(39, params.range().end().column() + 1);
    assertTrue(params.message().startsWith("A failing post hook with Abort fails the rollout"), params.message());

    Finding proposal = findings.get(1);
    assertEquals(30, proposal.range().start().line() + 1);
    assertEquals(39, proposal.range().start().column() + 1);
    assertTrue(proposal.message().startsWith("The 2015 proposal that strategy.lifecycle comes from did not allow"
        + " Abort for post hooks"), proposal.message());
  }
}
