package io.hooklens.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.core.engine.Config;
import io.hooklens.core.engine.Finding;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.yaml.SourceText;
import io.hooklens.core.yaml.YamlReader;
import io.hooklens.rules.RuleHarness;
import java.util.List;
import org.junit.jupiter.api.Test;

class DcCompletionsTest {
  private static final String DC = """
      apiVersion: apps.openshift.io/v1
      kind: DeploymentConfig
      metadata:
        name: shop
      spec:
        strategy:
          type: Recreate
        template:
          spec:
            initContainers:
              - name: init
            containers:
              - name: web
              - name: "${SIDECAR}"
            volumes:
              - name: data
              - name: cache
      """;

  private static Resource dc() {
    return HookDocument.of("dc.yaml", new YamlReader().read(new SourceText(DC), false)).resources().get(0);
  }

  @Test
  void offersWhatTheRulesAccept() {
    assertEquals(List.of("web"), DcCompletions.containerNames(dc()));
    assertEquals(List.of("data", "cache"), DcCompletions.volumeNames(dc()));
    assertEquals(List.of("pre", "mid", "post"), DcCompletions.phases("Recreate"));
    assertEquals(List.of("pre", "post"), DcCompletions.phases("Rolling"));
    assertEquals("Ignore", DcCompletions.failurePolicies("post").get(0).label());
    assertEquals("Abort", DcCompletions.failurePolicies("pre").get(0).label());
  }

  @Test
  void skeletonsPassEveryRule() {
    for (String phase : List.of("pre", "mid", "post")) {
      for (DcCompletions.Item skeleton : DcCompletions.skeletons(phase, dc())) {
        String hook = skeleton.label().replace("\"\"", "\"./run.sh\"").indent(8);
        String text = DC.replace("      type: Recreate\n", "      type: Recreate\n      recreateParams:\n        "
            + phase + ":\n" + hook);
        List<Finding> findings = RuleHarness.lintAll("dc.yaml", text).findings().stream()
            .filter(f -> f.ruleId().startsWith("HL3") && !f.ruleId().equals("HL319") && !f.ruleId().equals("HL315"))
            .toList();
        assertTrue(findings.isEmpty(), phase + ": " + findings + "\n" + text);
      }
    }
  }
}
