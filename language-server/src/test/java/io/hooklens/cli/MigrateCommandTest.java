package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.TestPaths;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MigrateCommandTest {
  @TempDir
  Path dir;

  @Test
  void theExampleTemplateBecomesADeploymentWithHookJobsThatLintClean() throws Exception {
    Path out = dir.resolve("migrated.yaml");
    CliRun r = CliRun.of("migrate", "dc", TestPaths.repoRoot().resolve("examples/deploymentconfig.yaml").toString(),
        "-o", out.toString());
    assertEquals(0, r.exit(), r.err());
    String text = Files.readString(out);
    assertFalse(text.contains("kind: DeploymentConfig"), text);
    assertHas(text, "kind: Deployment", "helm.sh/hook: pre-install,pre-upgrade",
        "helm.sh/hook: post-install,post-upgrade", "# shop: the mid hook has no equivalent", "backoffLimit: 6");
    CliRun lint = CliRun.of("lint", out.toString());
    assertEquals(0, lint.exit(), lint.out() + lint.err());
  }

  @Test
  void aLegacyJsonListMigratesInPlace() throws Exception {
    Path file = dir.resolve("list.json");
    Files.writeString(file, """
        {"apiVersion": "v1", "kind": "List", "items": [
          {"apiVersion": "v1", "kind": "DeploymentConfig", "metadata": {"name": "api"},
           "spec": {"replicas": 1, "selector": {"app": "api"},
             "strategy": {"type": "Recreate", "recreateParams": {"pre": {"failurePolicy": "Ignore",
               "execNewPod": {"containerName": "api", "command": ["./warm.sh"]}}}},
             "triggers": [{"type": "ConfigChange"}, {"type": "ImageChange"}],
             "template": {"metadata": {"labels": {"app": "api"}},
               "spec": {"containers": [{"name": "api", "image": "registry.example/api:1.2"}]}}}}]}
        """);
    CliRun r = CliRun.of("migrate", "dc", "--in-place", file.toString());
    assertEquals(0, r.exit(), r.err());
    String text = Files.readString(file);
    assertHas(text, "matchLabels:", "type: Recreate", "image: registry.example/api:1.2",
        "failurePolicy Ignore has no Helm equivalent", "the ImageChange trigger is gone");
  }

  @Test
  void inputThatIsNotYamlIsAUsageErrorWithItsLine() throws Exception {
    Path file = dir.resolve("bad.yaml");
    Files.writeString(file, "kind: DeploymentConfig\nspec: [unclosed\n");
    CliRun r = CliRun.of("migrate", "dc", file.toString());
    assertEquals(2, r.exit());
    assertTrue(r.err().contains("line "), r.err());
  }

  private static void assertHas(String text, String... parts) {
    for (String part : parts) {
      assertTrue(text.contains(part), () -> part + " missing from:\n" + text);
    }
  }
}
