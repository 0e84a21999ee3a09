package io.hooklens.rules.helm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.core.engine.Finding;
import io.hooklens.core.engine.Severity;
import io.hooklens.rules.RuleHarness;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What fixtures do not check: the severity a target gives a finding, and that every target-dependent
 * message names the target it assumed.
 */
class HelmTargetsTest {
  private static final String NOT_RECREATABLE = """
      apiVersion: batch/v1
      kind: Job
      metadata:
        name: migrate
        annotations:
          helm.sh/hook: pre-upgrade
          helm.sh/hook-delete-policy: hook-failed
          helm.sh/hook-output-log-policy: hook-failed
          helm.sh/hook-weight: "0"
      spec:
        template:
          spec:
            restartPolicy: Never
            containers:
              - name: migrate
                image: busybox
      """;

  private static List<Finding> lint(String ruleId, String target, String text) {
    return RuleHarness.lintWithOnly(ruleId, "chart.yaml", "# target: " + target + "\n" + text).findings();
  }

  @Test
  void theDefaultTargetIsHelm3AndTheMessageSaysSo() {
    List<Finding> found = RuleHarness.lintWithOnly("HL209", "chart.yaml", NOT_RECREATABLE).findings();
    assertEquals(1, found.size());
    assertTrue(found.get(0).message().contains("Helm 3 fails to create it"), found.get(0).message());
  }

  @Test
  void eachTargetIsNamed() {
    assertTrue(lint("HL209", "helm=4", NOT_RECREATABLE).get(0).message().contains("Helm 4 applies"));
    assertTrue(lint("HL209", "helm=4 deployer=flux", NOT_RECREATABLE).get(0).message()
        .contains("Flux's helm-controller (Helm 4) applies"));
    assertTrue(lint("HL209", "deployer=argocd", NOT_RECREATABLE).get(0).message().contains("Argo CD applies"));
  }

  @Test
  void underArgoCdAnIgnoredOutputLogPolicyIsInformation() {
    List<Finding> found = lint("HL217", "deployer=argocd", NOT_RECREATABLE);
    assertEquals(1, found.size());
    assertEquals(Severity.INFO, found.get(0).severity());
  }

  @Test
  void underArgoCdACaseHelmNormalisesIsAWarning() {
    String text = NOT_RECREATABLE.replace("pre-upgrade", "Pre-Upgrade");
    assertEquals(Severity.INFO, RuleHarness.lintWithOnly("HL225", "chart.yaml", text).findings().get(0).severity());
    List<Finding> argo = lint("HL225", "deployer=argocd", text);
    assertEquals(1, argo.size());
    assertEquals(Severity.WARNING, argo.get(0).severity());
  }
}
