package io.hooklens.rules;

import static org.junit.jupiter.api.Assertions.fail;

import io.hooklens.core.engine.Config;
import io.hooklens.core.engine.Finding;
import io.hooklens.core.engine.LintResult;
import io.hooklens.core.engine.Linter;
import io.hooklens.core.engine.RuleDescriptor;
import io.hooklens.core.engine.RuleRegistry;
import io.hooklens.core.engine.Targets;
import io.hooklens.core.engine.Version;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs one rule over a fixture and checks it against {@code # expect: HL105 "fragment"} markers: every
 * marker must be matched by a finding that starts on its line, and every finding must be on a marked
 * line. Several markers on a line are separated by {@code ;}. A first-line comment such as
 * {@code # target: kubernetes=1.29} or {@code # target: helm=4 deployer=argocd} sets targets; pairs are
 * separated by spaces or commas, and an unknown key or value fails the fixture. A fixture with a line
 * {@code # rules: all} is linted with every rule, so that its markers prove what is said once, and by whom.
 */
public final class RuleHarness {
  public static final RuleRegistry REGISTRY = BuiltInRules.registry();
  private static final Linter LINTER = new Linter(REGISTRY);
  private static final Pattern EXPECT = Pattern.compile("#\\s*expect:\\s*(.*)$");
  private static final Pattern ITEM = Pattern.compile("(HL\\d{3})(?:\\s+\"([^\"]*)\")?");
  private static final Pattern TARGET = Pattern.compile("#\\s*target:(.*)$", Pattern.MULTILINE);
  private static final Pattern ALL_RULES = Pattern.compile("^#\\s*rules:\\s*all\\s*$", Pattern.MULTILINE);

  private RuleHarness() {}

  /** One expected finding. */
  record Expected(String ruleId, String fragment) {}

  /** Lints text with only {@code ruleId} enabled. */
  public static LintResult lintWithOnly(String ruleId, String name, String text) {
    Map<String, Config.RuleSetting> settings = new HashMap<>();
    for (RuleDescriptor d : REGISTRY.all()) {
      if (!d.id().equals(ruleId)) {
        settings.put(d.id(), new Config.RuleSetting(null, true, Map.of()));
      }
    }
    return LINTER.lint(name, text, new Config(targets(text), settings, List.of()));
  }

  /** The targets a fixture's {@code # target:} comment sets, or the defaults. */
  static Targets targets(String text) {
    Targets targets = Targets.DEFAULT;
    Matcher t = TARGET.matcher(text);
    if (!t.find()) {
      return targets;
    }
    for (String pair : t.group(1).trim().split("[\\s,]+")) {
      String[] kv = pair.split("=", 2);
      String value = kv.length == 2 ? kv[1] : "";
      targets = switch (kv[0]) {
        case "kubernetes" -> targets.withKubernetes(require(Version.parse(value), pair));
        case "helm" -> targets.withHelm(Targets.Helm.parse(value).orElseThrow(() -> bad(pair)));
        case "deployer" -> targets.withDeployer(Targets.Deployer.parse(value).orElseThrow(() -> bad(pair)));
        default -> throw bad(pair);
      };
    }
    return targets;
  }

  private static <T> T require(T value, String pair) {
    if (value == null) {
      throw bad(pair);
    }
    return value;
  }

  private static IllegalArgumentException bad(String pair) {
    return new IllegalArgumentException("bad target \"" + pair + "\"; use kubernetes=1.29, helm=3|4, "
        + "deployer=helm|argocd|flux");
  }

  /** Lints text with every rule at its default setting. */
  public static LintResult lintAll(String name, String text) {
    return LINTER.lint(name, text, Config.DEFAULT);
  }

  /** Checks a fixture against its markers; fails with every mismatch listed. */
  public static void check(String ruleId, String name, String text) {
    Map<Integer, List<Expected>> expected = markers(text);
    LintResult result = ALL_RULES.matcher(text).find()
        ? LINTER.lint(name, text, new Config(targets(text), Map.of(), List.of()))
        : lintWithOnly(ruleId, name, text);
    if (!result.failures().isEmpty()) {
      throw new AssertionError(name + ": rule threw", result.failures().get(0).error());
    }
    Map<Integer, List<Finding>> actual = new TreeMap<>();
    for (Finding f : result.findings()) {
      actual.computeIfAbsent(f.range().start().line(), k -> new ArrayList<>()).add(f);
    }
    List<String> problems = new ArrayList<>();
    for (var e : expected.entrySet()) {
      List<Finding> found = new ArrayList<>(actual.getOrDefault(e.getKey(), List.of()));
      for (Expected x : e.getValue()) {
        Finding match = found.stream()
            .filter(f -> f.ruleId().equals(x.ruleId()) && (x.fragment() == null || f.message().contains(x.fragment())))
            .findFirst().orElse(null);
        if (match == null) {
          problems.add("line " + (e.getKey() + 1) + ": expected " + x.ruleId()
              + (x.fragment() == null ? "" : " containing \"" + x.fragment() + "\"") + ", found " + describe(found));
        } else {
          found.remove(match);
        }
      }
      for (Finding f : found) {
        problems.add("line " + (e.getKey() + 1) + ": unexpected extra finding " + describe(List.of(f)));
      }
    }
    for (var e : actual.entrySet()) {
      if (!expected.containsKey(e.getKey())) {
        problems.add("line " + (e.getKey() + 1) + ": unexpected finding " + describe(e.getValue()));
      }
    }
    if (!problems.isEmpty()) {
      fail(name + ":\n  " + String.join("\n  ", problems));
    }
  }

  static Map<Integer, List<Expected>> markers(String text) {
    Map<Integer, List<Expected>> out = new TreeMap<>();
    String[] lines = text.split("\r?\n", -1);
    for (int i = 0; i < lines.length; i++) {
      Matcher m = EXPECT.matcher(lines[i]);
      if (!m.find()) {
        continue;
      }
      for (String item : m.group(1).split(";")) {
        Matcher im = ITEM.matcher(item.trim());
        if (!im.matches()) {
          throw new IllegalArgumentException("bad marker on line " + (i + 1) + ": " + item);
        }
        out.computeIfAbsent(i, k -> new ArrayList<>()).add(new Expected(im.group(1), im.group(2)));
      }
    }
    return out;
  }

  private static String describe(List<Finding> fs) {
    if (fs.isEmpty()) {
      return "nothing";
    }
    StringBuilder sb = new StringBuilder();
    for (Finding f : fs) {
      sb.append("[").append(f.ruleId()).append(" ").append(f.severity().label()).append(" @")
          .append(f.range().start().line() + 1).append(":").append(f.range().start().column() + 1)
          .append(" ").append(f.message()).append("] ");
    }
    return sb.toString().trim();
  }
}
