package io.hooklens.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.TestPaths;
import io.hooklens.core.engine.Finding;
import io.hooklens.core.engine.RuleDescriptor;
import io.hooklens.core.engine.RuleRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Meta-tests over the registry: every rule is documented, tested both ways, and indexed. */
class RuleCatalogueTest {
  private static final RuleRegistry REGISTRY = RuleHarness.REGISTRY;
  private static final Pattern EXAMPLE =
      Pattern.compile("## (Incorrect|Correct)\\s*\\n(?:[^`]*?\\n)?```(yaml|json)\\n(.*?)```", Pattern.DOTALL);
  /**
   * Rules no manifest text can trigger: HL002 refuses input before it is read, and HL005 and HL006 report a
   * chart Helm cannot render in full, so their examples are chart files that ChartLinterTest renders.
   */
  private static final Set<String> NOT_FROM_TEXT = Set.of("HL002", "HL005", "HL006");

  static Path docs() {
    return TestPaths.repoRoot().resolve("docs/rules");
  }

  @TestFactory
  Stream<DynamicTest> everyRuleHasFixturesBothWays() {
    return REGISTRY.all().stream()
        .filter(d -> !NOT_FROM_TEXT.contains(d.id()))
        .map(d -> DynamicTest.dynamicTest(d.id(), () -> {
          List<Path> fixtures = RuleFixturesTest.fixtures(d.id());
          assertTrue(fixtures.stream().anyMatch(p -> p.getFileName().toString().startsWith("bad-")),
              d.id() + " needs a bad-*.yaml fixture");
          assertTrue(fixtures.stream().anyMatch(p -> p.getFileName().toString().startsWith("good-")),
              d.id() + " needs a good-*.yaml fixture");
        }));
  }

  @TestFactory
  Stream<DynamicTest> everyRuleHasADocsPageWhoseExamplesHold() {
    return REGISTRY.all().stream().map(d -> DynamicTest.dynamicTest(d.id(), () -> {
      Path page = docs().resolve(d.id() + ".md");
      assertTrue(Files.isRegularFile(page), d.id() + " needs " + page);
      String md = Files.readString(page, StandardCharsets.UTF_8);
      assertTrue(md.startsWith("# " + d.id() + " " + d.name() + "\n"),
          page + " must start with \"# " + d.id() + " " + d.name() + "\"");
      assertTrue(md.contains("## Why"), page + " needs a \"## Why\" section");
      if (NOT_FROM_TEXT.contains(d.id())) {
        return;
      }
      Matcher m = EXAMPLE.matcher(md);
      int incorrect = 0;
      int correct = 0;
      while (m.find()) {
        String ext = m.group(2).equals("json") ? ".json" : ".yaml";
        List<Finding> found = RuleHarness.lintWithOnly(d.id(), "example" + ext, m.group(3)).findings();
        if (m.group(1).equals("Incorrect")) {
          incorrect++;
          assertFalse(found.isEmpty(), page + ": the Incorrect example gives no " + d.id() + " finding");
        } else {
          correct++;
          assertEquals(List.of(), found, page + ": the Correct example must give no finding");
        }
      }
      assertTrue(incorrect > 0 && correct > 0, page + " needs an Incorrect and a Correct yaml example");
    }));
  }

  @Test
  void ruleIndexIsCurrent() throws IOException {
    String expected = RuleIndex.markdown(REGISTRY);
    Path index = docs().resolve("README.md");
    String actual = Files.isRegularFile(index) ? Files.readString(index, StandardCharsets.UTF_8) : "";
    assertEquals(expected, actual,
        "docs/rules/README.md is stale; regenerate it with ./hooklens rules --format md > docs/rules/README.md");
  }

  @Test
  void noDocsPageWithoutARule() throws IOException {
    List<String> orphans = new ArrayList<>();
    try (Stream<Path> s = Files.list(docs())) {
      s.map(p -> p.getFileName().toString())
          .filter(n -> n.matches("HL\\d{3}\\.md"))
          .filter(n -> REGISTRY.find(n.substring(0, 5)).isEmpty())
          .forEach(orphans::add);
    }
    assertEquals(List.of(), orphans, "docs pages for rules that do not exist");
  }

  @Test
  void everyRemediationIsASentenceAndEverySummaryIsNot() {
    for (RuleDescriptor d : REGISTRY.all()) {
      assertTrue(d.remediation().endsWith("."), d.id());
      assertFalse(d.summary().endsWith("."), d.id());
    }
  }
}
