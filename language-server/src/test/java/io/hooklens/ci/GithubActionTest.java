package io.hooklens.ci;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hooklens.TestPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * The action's scripts as the runner runs them: from a checkout of the action, in a workspace, with the inputs
 * as {@code INPUT_*} variables and {@code GITHUB_STEP_SUMMARY}, {@code GITHUB_OUTPUT} and {@code RUNNER_TEMP}
 * set as a runner sets them; the launcher runs this build's CLI.
 */
@Tag("slow")
class GithubActionTest {
  private static final Pattern ANNOTATION = Pattern.compile(
      "::(error|warning|notice) file=[^,:]+,line=\\d+,col=\\d+,endLine=\\d+,endColumn=\\d+,title=HL\\d+ [a-z0-9-]+::.+");
  /** A table row's cell separators: pipes not escaped. */
  private static final Pattern CELL = Pattern.compile("(?<!\\\\)\\|");

  @TempDir
  static Path shared;

  private static Path action;

  @TempDir
  Path dir;

  private record Step(int exit, String log, String summary, Map<String, String> outputs) {}

  @BeforeAll
  static void checkOut() throws IOException {
    action = CliCheckout.create(shared.resolve("action"), "action.yml", ".github/action");
  }

  @Test
  void theDocumentedWorkflowAnnotatesSummarisesAndWritesSarif() throws Exception {
    Path examples = TestPaths.repoRoot().resolve("examples");
    Path workspace = Files.createDirectories(dir.resolve("workspace/k8s"));
    Files.copy(examples.resolve("web.yaml"), workspace.resolve("web.yaml"));
    TestPaths.copyTree(examples.resolve("shop"), dir.resolve("workspace/charts/shop"));
    Map<String, Object> workflow = ActionManifestTest.map(new Load(LoadSettings.builder().build())
        .loadFromString(DocSnippets.ciYaml("uses: hooklens/hooklens@")));
    Map<String, Object> job = ActionManifestTest.map(ActionManifestTest.map(workflow.get("jobs")).values().iterator().next());
    Map<String, Object> with = ((List<?>) job.get("steps")).stream().map(ActionManifestTest::map)
        .filter(s -> String.valueOf(s.get("uses")).startsWith("hooklens/hooklens@"))
        .map(s -> ActionManifestTest.map(s.get("with"))).findFirst().orElseThrow();
    Map<String, String> inputs = new HashMap<>();
    with.forEach((name, value) -> inputs.put(name, String.valueOf(value)));

    Step step = lint(dir.resolve("workspace"), inputs);
    assertEquals(1, step.exit(), step.log());
    List<String> annotations = step.log().lines().filter(l -> l.startsWith("::")).toList();
    for (String a : annotations) {
      assertTrue(ANNOTATION.matcher(a).matches(), "an annotation as GitHub reads it: " + a);
    }
    assertTrue(annotations.stream().anyMatch(a -> a.startsWith("::warning file=k8s/web.yaml,line=26,col=13,")),
        step.log());
    assertTrue(annotations.stream().anyMatch(a -> a.startsWith(
        "::error file=charts/shop/templates/deployment.yaml,line=27,col=26,")), step.log());

    List<String> rows = step.summary().lines().filter(l -> l.startsWith("| ") && !l.startsWith("| Location")).toList();
    assertEquals(annotations.size(), rows.size(), step.summary());
    assertTrue(rows.contains("| k8s/web.yaml:33:23 | HL110 lifecycle-httpget-port-name-unknown | error | Container"
        + " \"web\" has no port named \"metrics\" (its named ports: http); the kubelet cannot resolve it, so the"
        + " postStart hook fails on every run. |"), step.summary());
    assertTrue(step.summary().startsWith("## Hooklens\n"), step.summary());
    assertTrue(step.summary().contains("failed: findings at or above warning."), step.summary());

    Map<String, String> out = step.outputs();
    assertEquals(String.valueOf(annotations.size()), out.get("findings"));
    assertEquals(annotations.size(), Integer.parseInt(out.get("errors")) + Integer.parseInt(out.get("warnings"))
        + Integer.parseInt(out.get("infos")));
    assertEquals("1", out.get("exit-code"));
    assertEquals("hooklens.sarif", out.get("sarif-file"));
    String sarif = Files.readString(dir.resolve("workspace/hooklens.sarif"));
    assertTrue(sarif.contains("\"version\" : \"2.1.0\"") && sarif.contains("k8s/web.yaml"), sarif);
  }

  @Test
  void cellsEscapePipesAndMarkupAndLocationsAreUnescaped() throws Exception {
    Path workspace = Files.createDirectories(dir.resolve("workspace"));
    String manifest = Files.readString(TestPaths.repoRoot().resolve("examples/overrun.yaml"))
        .replace("- name: app", "- name: \"a|b<i>\"");
    Files.writeString(workspace.resolve("odd,name:1.yaml"), manifest);

    Step step = lint(workspace, Map.of("paths", "odd,name:1.yaml", "fail-on", "never"));
    assertEquals(0, step.exit(), step.log());
    assertTrue(step.log().startsWith("::warning file=odd%2Cname%3A1.yaml,line=26,col=13,"), step.log());
    List<String> rows = step.summary().lines().filter(l -> l.startsWith("| odd")).toList();
    assertEquals(1, rows.size(), step.summary());
    String row = rows.get(0);
    assertTrue(row.startsWith("| odd,name:1.yaml:26:13 | HL401 prestop-budget-exceeds-grace | warning | preStop of"
        + " container \"a\\|b&lt;i&gt;\" needs"), row);
    assertEquals(6, CELL.split(row, -1).length, "four cells: " + row);
    assertEquals("0", step.outputs().get("exit-code"));
    assertEquals("1", step.outputs().get("warnings"));
    assertTrue(step.summary().contains("0 errors, 1 warning, 0 infos; passed."), step.summary());
  }

  @Test
  void failOnDecidesTheExitCodeAndBrokenInputOutranksIt() throws Exception {
    Path workspace = Files.createDirectories(dir.resolve("workspace"));
    Files.copy(TestPaths.repoRoot().resolve("examples/overrun.yaml"), workspace.resolve("overrun.yaml"));
    Files.copy(TestPaths.repoRoot().resolve("examples/good.yaml"), workspace.resolve("good.yaml"));

    Step warningsOnly = lint(workspace, Map.of("paths", "overrun.yaml", "fail-on", "error", "format", "text"));
    assertEquals(0, warningsOnly.exit(), warningsOnly.log());
    assertTrue(warningsOnly.log().contains("overrun.yaml:26:13: warning HL401"), "the text report: " + warningsOnly.log());
    assertFalse(warningsOnly.log().contains("::warning"), warningsOnly.log());
    assertTrue(warningsOnly.summary().contains("| overrun.yaml:26:13 | HL401"), warningsOnly.summary());

    Step clean = lint(workspace, Map.of("paths", "good.yaml"));
    assertEquals(0, clean.exit(), clean.log());
    assertEquals("## Hooklens\n\n0 errors, 0 warnings, 0 infos; passed.\n", clean.summary());
    assertEquals("0", clean.outputs().get("findings"));
    assertEquals("", clean.outputs().get("sarif-file"));

    Step broken = lint(workspace, Map.of("paths", "overrun.yaml\nmissing.yaml"));
    assertEquals(2, broken.exit(), broken.log());
    assertEquals("2", broken.outputs().get("exit-code"));
    assertEquals("1", broken.outputs().get("findings"), "the paths that can be read are still linted");
    assertTrue(broken.summary().contains("failed with exit code 2"), broken.summary());
  }

  @Test
  void aBaselineLeavesOnlyNewFindings() throws Exception {
    Path workspace = Files.createDirectories(dir.resolve("workspace"));
    Files.copy(TestPaths.repoRoot().resolve("examples/overrun.yaml"), workspace.resolve("overrun.yaml"));
    Map<String, String> env = Map.of("JAVA_HOME", System.getProperty("java.home"));
    Shell help = Shell.run(workspace, env, List.of(action.resolve("hooklens").toString(), "lint", "--help"));
    assumeTrue(help.out().contains("--baseline="), "this CLI has no --baseline option yet");
    Shell written = Shell.run(workspace, env, List.of(action.resolve("hooklens").toString(), "lint",
        "--write-baseline", "baseline.json", "overrun.yaml"));
    assertTrue(Files.exists(workspace.resolve("baseline.json")), written.both());

    Step step = lint(workspace, Map.of("paths", "overrun.yaml", "baseline", "baseline.json"));
    assertEquals(0, step.exit(), step.log());
    assertEquals("0", step.outputs().get("findings"), step.log());
  }

  @Test
  void javaIsFoundOnlyWhenThereIsOne() throws Exception {
    Path script = action.resolve(".github/action/java.sh");
    Path output = dir.resolve("output");
    Map<String, String> env = new HashMap<>(Map.of("GITHUB_OUTPUT", output.toString(),
        "JAVA_HOME", System.getProperty("java.home")));
    assertEquals(0, Shell.run(dir, env, List.of(script.toString())).exit());
    // No JAVA_HOME and a PATH with only what the script needs besides Java.
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Files.createSymbolicLink(bin.resolve("sed"), Path.of("/bin/sed").toRealPath());
    env.put("JAVA_HOME", "");
    env.put("PATH", bin.toString());
    Shell none = Shell.run(dir, env, List.of("/bin/bash", script.toString()));
    assertEquals(0, none.exit(), none.both());
    assertEquals("found=true\nfound=false\n", Files.readString(output));
  }

  private Step lint(Path workspace, Map<String, String> inputs) throws Exception {
    Path summary = Files.createFile(dir.resolve("summary-" + System.nanoTime()));
    Path output = Files.createFile(dir.resolve("output-" + System.nanoTime()));
    Map<String, String> env = new HashMap<>();
    inputs.forEach((name, value) -> env.put("INPUT_" + name.toUpperCase().replace('-', '_'), value));
    env.put("GITHUB_STEP_SUMMARY", summary.toString());
    env.put("GITHUB_OUTPUT", output.toString());
    env.put("RUNNER_TEMP", Files.createDirectories(dir.resolve("runner-temp")).toString());
    env.put("JAVA_HOME", System.getProperty("java.home"));
    Shell r = Shell.run(workspace, env, List.of(action.resolve(".github/action/lint.sh").toString()));
    Map<String, String> outputs = new HashMap<>();
    for (String line : Files.readAllLines(output)) {
      int eq = line.indexOf('=');
      outputs.put(line.substring(0, eq), line.substring(eq + 1));
    }
    return new Step(r.exit(), r.out() + r.err(), Files.readString(summary), outputs);
  }
}
