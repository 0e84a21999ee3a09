package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.TestPaths;
import io.hooklens.app.CommentPlaces;
import io.hooklens.app.DcMigration;
import io.hooklens.core.engine.Config;
import io.hooklens.core.engine.Finding;
import io.hooklens.core.engine.Linter;
import io.hooklens.rules.BuiltInRules;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

class MigrateCommandTest {
  @TempDir
  Path dir;

  @Test
  void theExampleTemplateBecomesADeploymentWithHookJobsThatLintClean() throws Exception {
    Path out = dir.resolve("migrated.yaml");
    CliRun r = CliRun.of("migrate", "dc", TestPaths.repoRoot().resolve("examples/deploymentconfig.yaml").toString(),
        "-o", out.toString());
    // Its post hook names a container the template lacks: a TODO note instead of a Job the API would refuse.
    assertEquals(1, r.exit(), r.err());
    String text = Files.readString(out);
    assertFalse(text.contains("kind: DeploymentConfig"), text);
    assertFalse(text.contains("post-install"), text);
    assertHas(text, "kind: Deployment", "helm.sh/hook: pre-install,pre-upgrade",
        "# shop: TODO: the post hook was not migrated: no container named \"web\"",
        "# shop: the mid hook has no equivalent", "backoffLimit: 6");
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
  void everyCommentOfTheDcGoesWithWhatTheDeploymentOrItsJobsMakeOfItsFieldAndTheResultLintsClean() throws Exception {
    Path file = dir.resolve("dc.yaml");
    Files.writeString(file, CommentPlaces.fixture());
    Path out = dir.resolve("migrated.yaml");
    CliRun r = CliRun.of("migrate", "dc", file.toString(), "-o", out.toString());
    assertEquals(0, r.exit(), r.err());
    String text = Files.readString(out);
    Map<String, List<String>> expected = new TreeMap<>();
    CommentPlaces.EXPECTED.forEach((mark, place) -> expected.put(mark, List.of(place)));
    assertEquals(expected, new TreeMap<>(CommentPlaces.of(text)), text);
    assertHas(text, CommentPlaces.LIST_ITEMS.toArray(String[]::new));
    CliRun lint = CliRun.of("lint", out.toString());
    assertEquals(0, lint.exit(), lint.out() + lint.err());
  }

  @Test
  void aCommentOnAListItemIsALineAboveItsDashAtEveryDepthAndTheDataIsAsWithoutComments() throws Exception {
    String dc = CommentPlaces.fixture();
    String list = "apiVersion: v1\nkind: List\nitems:\n" + dc.indent(4).replaceFirst("    apiVersion", "  - apiVersion");
    for (String input : List.of(dc, list)) {
      String text = DcMigration.migrate(input).text();
      int depth = input.equals(dc) ? 0 : 2;
      assertHas(text, CommentPlaces.LIST_ITEMS.stream().map(part -> part.indent(depth)).toArray(String[]::new));
      assertEquals(load(DcMigration.migrate(CommentPlaces.withoutComments(input)).text()), load(text), text);
    }
    assertHas(DcMigration.migrate(list).text(),
        "items:\n# c-head: the shop, before its move\n- apiVersion: apps/v1\n",
        "\n# c-post: tells the team\n- apiVersion: batch/v1\n");
  }

  @Test
  void aCommentOnAListInAListIsALineAboveBothDashes() throws Exception {
    String text = DcMigration.migrate("""
        kind: DeploymentConfig
        metadata: {name: api}
        spec:
          template:
            spec:
              containers:
                - name: api
                  matrix:
                    # the first pair
                    - - a
                      - b
        """).text();
    assertHas(text, "    matrix:\n        # the first pair\n        - - a\n          - b\n");
  }

  @Test
  void aHookNamingAContainerTheTemplateLacksIsATodoNoteNotAJobWithoutImageAndExitsOne() throws Exception {
    Path file = dir.resolve("dc.yaml");
    Files.writeString(file, CommentPlaces.fixture().replace("containerName: shop # c-pre-container",
        "containerName: missing # c-pre-container"));
    CliRun lintInput = CliRun.of("lint", file.toString());
    assertTrue(lintInput.out().contains("No container named \"missing\" in the template (containers: shop)"),
        lintInput.out());
    Path out = dir.resolve("migrated.yaml");
    CliRun r = CliRun.of("migrate", "dc", file.toString(), "-o", out.toString());
    assertEquals(1, r.exit(), r.err());
    assertTrue(r.err().contains("not migrated, see its TODO note: shop pre hook: no container named \"missing\" in"
        + " the template (containers: shop)"), r.err());
    String text = Files.readString(out);
    assertFalse(text.contains("shop-pre-hook"), text);
    assertHas(text, "# shop: TODO: the pre hook was not migrated: no container named \"missing\" in the template"
        + " (containers: shop).", "it runs [\"/bin/migrate\"].", "#   # c-pre: migrates the schema",
        "#   # c-pre-container", "name: shop-post-hook");
    CliRun lint = CliRun.of("lint", out.toString());
    assertEquals(0, lint.exit(), lint.out() + lint.err());
  }

  @Test
  void aHookNamingAnInitContainerIsATodoNoteSayingSo() throws Exception {
    String dc = CommentPlaces.fixture().replace("containerName: shop # c-pre-container", "containerName: setup")
        .replace("      containers:\n", "      initContainers:\n        - {name: setup, image: busybox}\n"
            + "      containers:\n");
    DcMigration.Result r = DcMigration.migrate(dc);
    assertEquals(List.of("shop pre hook: \"setup\" is an init container, and a hook takes only a regular one"
        + " (containers: shop)"), r.leftOut(), r.text());
    assertFalse(r.text().contains("shop-pre-hook"), r.text());
  }

  @Test
  void fieldsADeploymentSharesAreKeptAndEveryOtherFieldHasANote() throws Exception {
    DcMigration.Result r = DcMigration.migrate("""
        apiVersion: apps.openshift.io/v1
        kind: DeploymentConfig
        metadata: {name: api}
        spec:
          replicas: 2
          minReadySeconds: 15 # settle first
          revisionHistoryLimit: 3
          paused: true
          test: false
          selector: {app: api}
          strategy:
            type: Recreate
            recreateParams: {timeoutSeconds: 900}
            resources: {limits: {cpu: 100m}}
            activeDeadlineSeconds: 3600
          template:
            metadata: {labels: {app: api}}
            spec:
              containers: [{name: api, image: registry.example/api:1.2}]
        """);
    assertHas(r.text(), "minReadySeconds: 15 # settle first", "revisionHistoryLimit: 3", "paused: true",
        "# api: recreateParams.timeoutSeconds has no Deployment field; see progressDeadlineSeconds.",
        "# api: spec.test has no Deployment field", "# api: strategy.resources applies to OpenShift's deployer pod",
        "# api: strategy.activeDeadlineSeconds applies to OpenShift's deployer pod");
    assertFalse(r.text().contains("test: false"), r.text());
    Path out = dir.resolve("migrated.yaml");
    Files.writeString(out, r.text());
    CliRun lint = CliRun.of("lint", out.toString());
    assertEquals(0, lint.exit(), lint.out() + lint.err());
  }

  @Test
  void aCustomStrategySaysItBecameRollingUpdate() throws Exception {
    DcMigration.Result r = DcMigration.migrate("""
        apiVersion: apps.openshift.io/v1
        kind: DeploymentConfig
        metadata: {name: api}
        spec:
          strategy:
            type: Custom
            customParams: {image: registry.example/deployer:1}
          template:
            metadata: {labels: {app: api}}
            spec:
              containers: [{name: api, image: registry.example/api:1.2}]
        """);
    assertHas(r.text(), "type: RollingUpdate", "# api: the Custom strategy runs its own deployer image");
  }

  @Test
  void inputThatIsNotYamlIsAUsageErrorWithItsLine() throws Exception {
    Path file = dir.resolve("bad.yaml");
    Files.writeString(file, "kind: DeploymentConfig\nspec: [unclosed\n");
    CliRun r = CliRun.of("migrate", "dc", file.toString());
    assertEquals(2, r.exit());
    assertTrue(r.err().contains("line "), r.err());
  }

  @Test
  void aNodeThatHoldsItselfIsAUsageErrorNotAnEndlessOutput() throws Exception {
    Path file = dir.resolve("loop.yaml");
    Files.writeString(file, "kind: DeploymentConfig\nspec: &s\n  template: *s\n");
    CliRun r = CliRun.of("migrate", "dc", file.toString());
    assertEquals(2, r.exit(), r.err());
    assertTrue(r.err().contains("holds itself through an alias"), r.err());
  }

  /** Every file of examples/ and of the rules' correct fixtures that holds a DeploymentConfig. */
  static Stream<Path> deploymentConfigs() throws IOException {
    Path root = TestPaths.repoRoot();
    try (Stream<Path> fixtures = Files.walk(root.resolve("language-server/src/test/resources/rules"));
        Stream<Path> examples = Files.list(root.resolve("examples"))) {
      List<Path> files = Stream.concat(examples, fixtures.filter(f -> f.getFileName().toString().startsWith("good")))
          .filter(Files::isRegularFile).filter(f -> f.toString().matches(".*\\.(yaml|yml|json)"))
          .filter(f -> read(f).contains("DeploymentConfig")).sorted().toList();
      return files.stream();
    }
  }

  /**
   * What the migration writes lints clean: every finding on its output was already there on a document of the
   * input that is no DeploymentConfig (such documents pass through as they are), but HL223: a hook that fit its
   * rollout's deadline may run longer than Helm waits by default, which docs/migrate.md tells users to give
   * helm --timeout for.
   */
  @ParameterizedTest
  @MethodSource("deploymentConfigs")
  void whatTheMigrationWritesAddsNoFinding(Path file) throws Exception {
    Linter linter = new Linter(BuiltInRules.registry());
    String input = read(file);
    DcMigration.Result result = DcMigration.migrate(input);
    Set<String> before = linter.lint(file.getFileName().toString(), input, Config.DEFAULT).findings().stream()
        .filter(f -> f.resource() == null || !"DeploymentConfig".equals(f.resource().kind()))
        .map(MigrateCommandTest::key).collect(Collectors.toSet());
    List<String> added = linter.lint("migrated.yaml", result.text(), Config.DEFAULT).findings().stream()
        .filter(f -> !f.ruleId().equals("HL223")).map(MigrateCommandTest::key).filter(k -> !before.contains(k))
        .toList();
    assertEquals(List.of(), added, file + " migrated to:\n" + result.text());
  }

  private static String key(Finding f) {
    return f.ruleId() + " " + (f.resource() == null ? "" : f.resource().kind() + "/" + f.resource().name());
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static List<Object> load(String yaml) {
    List<Object> docs = new ArrayList<>();
    new Load(LoadSettings.builder().build()).loadAllFromString(yaml).forEach(docs::add);
    return docs;
  }

  private static void assertHas(String text, String... parts) {
    for (String part : parts) {
      assertTrue(text.contains(part), () -> part + " missing from:\n" + text);
    }
  }
}
