package io.hooklens.ci;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.TestPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * action.yml and the script it runs agree: every input reaches the lint step as the {@code INPUT_*} variable
 * the script reads, and every output the action declares is one the script writes; the workflow in docs/ci.md
 * sets only inputs the action declares.
 */
class ActionManifestTest {
  private static final Pattern READ = Pattern.compile("\\$\\{(INPUT_[A-Z_]+)");
  private static final Pattern WRITTEN = Pattern.compile("echo \"([a-z-]+)=");

  @Test
  void everyInputReachesTheScriptAndEveryVariableItReadsIsAnInput() throws IOException {
    Map<String, Object> action = action();
    Map<String, String> expected = new TreeMap<>();
    for (String input : map(action.get("inputs")).keySet()) {
      expected.put("INPUT_" + input.toUpperCase().replace('-', '_'), "${{ inputs." + input + " }}");
    }
    Map<String, Object> lint = lintStep(action);
    assertEquals(expected, new TreeMap<>(map(lint.get("env"))), "the lint step's variables are the inputs");
    String script = Files.readString(TestPaths.repoRoot().resolve(".github/action/lint.sh"));
    TreeSet<String> read = new TreeSet<>();
    Matcher m = READ.matcher(script);
    while (m.find()) {
      read.add(m.group(1));
    }
    assertEquals(expected.keySet(), read, "lint.sh reads exactly the inputs");
  }

  @Test
  void everyOutputIsOneTheScriptWrites() throws IOException {
    String script = Files.readString(TestPaths.repoRoot().resolve(".github/action/lint.sh"));
    TreeSet<String> written = new TreeSet<>();
    Matcher m = WRITTEN.matcher(script);
    while (m.find()) {
      written.add(m.group(1));
    }
    Map<String, Object> outputs = map(action().get("outputs"));
    assertEquals(written, new TreeSet<>(outputs.keySet()), "the action's outputs are the script's");
    outputs.forEach((name, output) -> assertEquals("${{ steps.lint.outputs." + name + " }}", map(output).get("value")));
  }

  @Test
  void theDocumentedWorkflowSetsOnlyDeclaredInputs() throws IOException {
    Map<String, Object> workflow = map(new Load(LoadSettings.builder().build())
        .loadFromString(DocSnippets.ciYaml("uses: hooklens/hooklens@")));
    Map<String, Object> job = map(map(workflow.get("jobs")).values().iterator().next());
    Map<String, Object> step = ((List<?>) job.get("steps")).stream().map(ActionManifestTest::map)
        .filter(s -> String.valueOf(s.get("uses")).startsWith("hooklens/hooklens@")).findFirst().orElseThrow();
    Map<String, Object> inputs = map(action().get("inputs"));
    for (String name : map(step.get("with")).keySet()) {
      assertTrue(inputs.containsKey(name), "docs/ci.md sets " + name + ", which action.yml does not declare");
    }
  }

  private static Map<String, Object> lintStep(Map<String, Object> action) {
    List<?> steps = (List<?>) map(action.get("runs")).get("steps");
    return steps.stream().map(ActionManifestTest::map).filter(s -> "lint".equals(s.get("id"))).findFirst()
        .orElseThrow();
  }

  static Map<String, Object> action() throws IOException {
    Path file = TestPaths.repoRoot().resolve("action.yml");
    return map(new Load(LoadSettings.builder().build()).loadFromString(Files.readString(file)));
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Object o) {
    return (Map<String, Object>) o;
  }
}
