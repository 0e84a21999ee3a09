package io.hooklens.rules.helm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hooklens.core.engine.Finding;
import io.hooklens.rules.RuleHarness;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Helm installs the files of a chart's {@code crds/} directory as they are, without reading hook annotations,
 * so the Helm hook rules leave them alone. Fixtures cannot show this: their names carry no directory.
 */
class ChartCrdsDirectoryTest {
  private static final String CRD = """
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata:
        name: backups.example.com
        annotations:
          helm.sh/hook: crd-install
          helm.sh/hook-delete-timeout: "60"
      """;

  private static List<String> findings(String ruleId, String name) {
    return RuleHarness.lintWithOnly(ruleId, name, CRD).findings().stream().map(Finding::ruleId).toList();
  }

  @ParameterizedTest
  @ValueSource(strings = {"crds/backups.yaml", "charts/velero/crds/backups.yaml", "C:\\charts\\velero\\crds\\b.yaml"})
  void hookAnnotationsUnderCrdsAreNotRead(String name) {
    assertEquals(List.of(), findings("HL202", name));
    assertEquals(List.of(), findings("HL212", name));
  }

  @Test
  void hookAnnotationsInTemplatesAreRead() {
    assertEquals(List.of("HL202"), findings("HL202", "charts/velero/templates/crds.yaml"));
    assertEquals(List.of("HL202"), findings("HL202", "my-crds.yaml"));
  }
}
