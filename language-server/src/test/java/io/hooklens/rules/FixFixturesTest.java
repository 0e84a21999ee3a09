package io.hooklens.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.TestPaths;
import io.hooklens.core.engine.Finding;
import io.hooklens.core.engine.Fix;
import io.hooklens.core.engine.Fixes;
import io.hooklens.core.engine.LintResult;
import io.hooklens.core.engine.RuleDescriptor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fixes as input/output pairs: {@code fixes/HL206-weight.yaml} is linted with only HL206 enabled, the
 * fix of each HL206 finding is applied, and the result must equal {@code HL206-weight.fixed.yaml} byte
 * for byte, lint without HL206 findings and still parse. A YAML fixture's line
 * {@code # fix: safe "fragment"} (or {@code editor}) picks, by a fragment of its title, the fix of each
 * finding when there are several, and states whether {@code hooklens lint --fix} applies it; without it,
 * each finding must have exactly one fix. A finding on a line ending in {@code # no fix} must have none
 * (a template line next to an action).
 */
class FixFixturesTest {
  private static final Pattern HEADER = Pattern.compile("#\\s*fix:\\s*(safe|editor)(?:\\s+\"([^\"]*)\")?");
  private static final Pattern ID = Pattern.compile("(HL\\d{3})-.*");

  static Path dir() {
    return TestPaths.repoRoot().resolve("language-server/src/test/resources/fixes");
  }

  static List<Path> inputs() throws IOException {
    try (Stream<Path> s = Files.list(dir())) {
      return s.filter(p -> !p.getFileName().toString().contains(".fixed.")).sorted().toList();
    }
  }

  static Path expected(Path input) {
    String name = input.getFileName().toString();
    int dot = name.lastIndexOf('.');
    return input.resolveSibling(name.substring(0, dot) + ".fixed" + name.substring(dot));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("inputs")
  void fixGivesTheExpectedText(Path input) throws IOException {
    String name = input.getFileName().toString();
    Matcher id = ID.matcher(name);
    assertTrue(id.matches(), name + " must start with a rule id");
    String ruleId = id.group(1);
    String text = Files.readString(input, StandardCharsets.UTF_8);
    Matcher header = HEADER.matcher(text);
    Boolean safe = null;
    String fragment = null;
    if (header.find()) {
      safe = header.group(1).equals("safe");
      fragment = header.group(2);
    }
    LintResult result = RuleHarness.lintWithOnly(ruleId, name, text);
    List<Fix> chosen = new ArrayList<>();
    String[] lines = text.split("\r?\n|\r", -1);
    for (Finding f : result.findings()) {
      if (lines[f.range().start().line()].endsWith("# no fix")) {
        assertEquals(List.of(), f.fixes(), name + ": no fix expected for \"" + f.message() + "\"");
        continue;
      }
      String want = fragment;
      List<Fix> matching = f.fixes().stream().filter(x -> want == null || x.title().contains(want)).toList();
      assertEquals(1, matching.size(), name + ": expected one fix for \"" + f.message() + "\", got "
          + f.fixes().stream().map(Fix::title).toList());
      Fix fix = matching.get(0);
      if (safe != null) {
        assertEquals(safe, fix.safe(), name + ": is \"" + fix.title() + "\" safe?");
      }
      chosen.add(fix);
    }
    assertFalse(chosen.isEmpty(), name + " has no " + ruleId + " finding");
    String fixed = Fixes.apply(text, chosen);
    assertEquals(Files.readString(expected(input), StandardCharsets.UTF_8), fixed, name);
    LintResult after = RuleHarness.lintAll(name, fixed);
    String[] fixedLines = fixed.split("\r?\n|\r", -1);
    List<String> left = after.findings().stream()
        .filter(f -> f.ruleId().equals(ruleId) && !fixedLines[f.range().start().line()].endsWith("# no fix")
            || f.ruleId().equals("HL001") || f.ruleId().equals("HL003"))
        .map(f -> f.ruleId() + " " + f.message()).toList();
    assertEquals(List.of(), left, name + ": the fixed text still has");
  }

  @Test
  void everyFixableRuleHasAFixtureAndEveryFixtureARule() throws IOException {
    Set<String> withFixture = inputs().stream().map(p -> p.getFileName().toString().substring(0, 5))
        .collect(Collectors.toCollection(TreeSet::new));
    Set<String> fixable = RuleHarness.REGISTRY.all().stream().filter(RuleDescriptor::fixable)
        .map(RuleDescriptor::id).collect(Collectors.toCollection(TreeSet::new));
    assertEquals(fixable, withFixture, "fixable rules and rules with fix fixtures");
    for (Path p : inputs()) {
      assertTrue(Files.isRegularFile(expected(p)), p + " needs " + expected(p).getFileName());
    }
    for (String id : fixable) {
      String page = Files.readString(RuleCatalogueTest.docs().resolve(id + ".md"), StandardCharsets.UTF_8);
      assertTrue(page.contains("\n## Fix\n") && page.contains("hooklens lint --fix"),
          id + ".md needs a Fix section that says whether hooklens lint --fix applies it");
    }
  }
}
