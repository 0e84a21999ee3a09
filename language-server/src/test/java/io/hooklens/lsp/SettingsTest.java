package io.hooklens.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.hooklens.core.engine.Config;
import io.hooklens.core.engine.RuleRegistry;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.engine.Targets;
import io.hooklens.core.engine.Version;
import io.hooklens.rules.BuiltInRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SettingsTest {
  private static final RuleRegistry REGISTRY = BuiltInRules.registry();

  private static Settings read(String json, List<String> problems) {
    return Settings.read(Settings.section(JsonParser.parseString(json)), REGISTRY, problems::add);
  }

  @Test
  void readsTheSectionWhetherWrappedOrNot() {
    List<String> problems = new ArrayList<>();
    String section = "{\"targets\": {\"kubernetes\": \"1.29\"}, \"rules\": {\"HL401\": \"error\", \"HL4xx\": \"off\"},"
        + " \"debounceMs\": 40}";
    Settings wrapped = read("{\"hooklens\": " + section + ", \"yaml\": {\"validate\": true}}", problems);
    Settings bare = read(section, problems);
    assertEquals(List.of(), problems);
    assertEquals(wrapped, bare);
    assertEquals(new Version(1, 29), bare.targets().kubernetes());
    assertEquals(Severity.ERROR, bare.rules().get("HL401").severity());
    assertTrue(bare.rules().get("HL4xx").off());
    assertEquals(40, bare.debounceMs());
  }

  @Test
  void aPayloadAboutOtherToolsIsNotOurs() {
    assertNull(Settings.section(JsonParser.parseString("{\"yaml\": {\"validate\": true}}")));
    assertNull(Settings.section(null));
  }

  @Test
  void aVersionWrittenAsANumberKeepsItsDigits() {
    assertEquals(new Version(1, 30), read("{\"targets\": {\"kubernetes\": 1.30}}", new ArrayList<>())
        .targets().kubernetes());
  }

  @Test
  void everyBadValueKeepsItsDefaultAndIsReported() {
    List<String> problems = new ArrayList<>();
    Settings s = read("{\"hooklens\": {\"targets\": {\"kubernetes\": \"latest\", \"helm\": 2,"
        + " \"deployer\": \"kubectl\", \"openshift\": \"4\"},"
        + " \"rules\": {\"HL401\": \"loud\", \"HL999\": \"error\", \"HL402\": [1], \"HL123\": \"warning\"},"
        + " \"debounceMs\": -5, \"colour\": true, \"trace\": {\"server\": \"verbose\"}}}", problems);
    assertNull(s.targets().kubernetes());
    assertEquals(Map.of("HL123", new Config.RuleSetting(Severity.WARNING, false, Map.of())), s.rules());
    assertEquals(Settings.DEFAULT_DEBOUNCE_MS, s.debounceMs());
    assertNull(s.targets().helm());
    assertNull(s.targets().deployer());
    assertEquals(9, problems.size(), problems::toString);
    assertTrue(problems.stream().anyMatch(p -> p.contains("hooklens.colour")), problems::toString);
    assertTrue(problems.stream().noneMatch(p -> p.contains("trace")), problems::toString);
  }

  @Test
  void valuesOfTheWrongShapeAreReportedNotThrown() {
    List<String> problems = new ArrayList<>();
    Settings s = read("{\"hooklens\": {\"targets\": \"1.29\", \"rules\": [\"HL401\"], \"debounceMs\": \"fast\"}}",
        problems);
    assertEquals(Settings.DEFAULT, s);
    assertEquals(3, problems.size(), problems::toString);
    assertEquals(Settings.DEFAULT, read("{\"hooklens\": 42}", problems));
    assertEquals(Settings.DEFAULT, read("{\"hooklens\": null}", problems));
  }

  @Test
  void settingsWinOverTheFileRuleByRuleAndKeepItsParameters() {
    Config file = new Config(Config.DEFAULT.targets().withKubernetes(new Version(1, 28)), Map.of(
        "HL401", new Config.RuleSetting(null, false, Map.of("shutdownSeconds", "20")),
        "HL402", new Config.RuleSetting(null, true, Map.of()),
        "HL123", new Config.RuleSetting(Severity.ERROR, false, Map.of())), List.of("vendor/**"));
    Settings editor = read("{\"rules\": {\"HL4xx\": \"error\"}}", new ArrayList<>());
    Config merged = ConfigService.merge(file, editor, REGISTRY);
    assertEquals(new Version(1, 28), merged.targets().kubernetes());
    assertEquals(new Config.RuleSetting(Severity.ERROR, false, Map.of("shutdownSeconds", "20")),
        merged.rules().get("HL401"));
    assertEquals(Severity.ERROR, merged.rules().get("HL402").severity());
    assertEquals(Severity.ERROR, merged.rules().get("HL123").severity());
    assertEquals(List.of("vendor/**"), merged.exclude());

    Settings target = read("{\"targets\": {\"kubernetes\": \"1.31\"}}", new ArrayList<>());
    assertEquals(new Version(1, 31), ConfigService.merge(file, target, REGISTRY).targets().kubernetes());
    assertEquals(file.rules(), ConfigService.merge(file, target, REGISTRY).rules());
  }

  @Test
  void helmAndDeployerTargetsOverrideTheFileOneByOne() {
    List<String> problems = new ArrayList<>();
    Settings s = read("{\"targets\": {\"helm\": \"4\", \"deployer\": \"ArgoCD\", \"kubernetes\": null}}", problems);
    assertEquals(List.of(), problems);
    Config file = new Config(new Targets(new Version(1, 28), Targets.Helm.V3, Targets.Deployer.FLUX), Map.of(),
        List.of());
    assertEquals(new Targets(new Version(1, 28), Targets.Helm.V4, Targets.Deployer.ARGOCD),
        ConfigService.merge(file, s, REGISTRY).targets());
    Settings helmOnly = read("{\"targets\": {\"helm\": 4}}", problems);
    assertEquals(new Targets(new Version(1, 28), Targets.Helm.V4, Targets.Deployer.FLUX),
        ConfigService.merge(file, helmOnly, REGISTRY).targets());
  }

  @Test
  void helmValuesSetsAndSetValuesAreReadAndWinOverTheFile() {
    List<String> problems = new ArrayList<>();
    Settings s = read("{\"helm\": {\"values\": [\"ci/prod.yaml\", 3], \"set\": {\"grace\": 60, \"on\": true,"
        + " \"x\": {}, \"y[\": 1}, \"valuesFiles\": []}}", problems);
    assertEquals(new Config.Charts(List.of("ci/prod.yaml"), Map.of("grace", "60", "on", "true")), s.helm());
    assertEquals(4, problems.size(), problems::toString);
    assertTrue(problems.contains("hooklens.helm.set.y[: error parsing index: \"[=1\" has no ], as on helm's --set;"
        + " ignored"), problems::toString);
    assertNull(read("{\"helm\": \"prod.yaml\"}", problems).helm());

    Config file = new Config(Targets.DEFAULT, Map.of(), List.of(),
        new Config.Charts(List.of("staging.yaml"), Map.of("grace", "30", "tag", "1"), "shop", "web"));
    Config.Charts merged = ConfigService.merge(file, s, REGISTRY).charts();
    assertEquals(List.of("ci/prod.yaml"), merged.values());
    assertEquals("shop", merged.releaseName(), "the release the file names is rendered in the editor too");
    assertEquals("web", merged.namespace());
    assertEquals(Map.of("grace", "60", "on", "true", "tag", "1"), merged.set());
    assertEquals(file.charts(), ConfigService.merge(file, Settings.DEFAULT, REGISTRY).charts());
  }

  @Test
  void theReleaseNameAndNamespaceWinOverTheFileAndABadOneIsReportedAndLeftOut() {
    List<String> problems = new ArrayList<>();
    Config file = new Config(Targets.DEFAULT, Map.of(), List.of(),
        new Config.Charts(List.of(), Map.of(), "shop", "web"));
    Settings given = read("{\"helm\": {\"releaseName\": \" given.v2 \", \"namespace\": \"staging\"}}", problems);
    assertEquals(List.of(), problems);
    Config.Charts merged = ConfigService.merge(file, given, REGISTRY).charts();
    assertEquals("given.v2", merged.releaseName());
    assertEquals("staging", merged.namespace());

    Settings bad = read("{\"helm\": {\"releaseName\": \"Given_1\", \"namespace\": 7}}", problems);
    assertEquals(List.of("hooklens.helm.releaseName: \"Given_1\" is no release name Helm takes: lower-case letters,"
        + " digits, '-' and '.', starting and ending with a letter or digit, at most 53 characters; ignored, so charts"
        + " are rendered with the releaseName of .hooklens.yaml, else the default",
        "hooklens.helm.namespace: 7 is not a string; ignored, so charts are rendered with the namespace of"
        + " .hooklens.yaml, else the default"), problems);
    assertEquals(file.charts(), ConfigService.merge(file, bad, REGISTRY).charts());
    problems.clear();
    Settings empty = read("{\"helm\": {\"releaseName\": \"\", \"namespace\": null}}", problems);
    assertEquals(List.of(), problems);
    assertEquals(file.charts(), ConfigService.merge(file, empty, REGISTRY).charts());
    read("{\"helm\": {\"namespace\": \"" + "n".repeat(64) + "\"}}", problems);
    assertTrue(problems.get(0).contains("at most 63 characters"), problems::toString);
  }
}
