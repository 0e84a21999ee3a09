package io.hooklens.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hooklens.rules.BuiltInRules;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConfigReaderTest {
  private static ConfigReader.Result read(String text) {
    return ConfigReader.read(text, BuiltInRules.registry());
  }

  @Test
  void targetsDefaultToKubernetes134Helm3AndTheHelmCli() {
    ConfigReader.Result r = read("rules: {}\n");
    assertEquals(List.of(), r.errors());
    assertEquals(new Targets(new Version(1, 34), Targets.Helm.V3, Targets.Deployer.HELM), r.config().targets());
  }

  @Test
  void helmVersionAndDeployerAreRead() {
    ConfigReader.Result r = read("targets: {kubernetes: \"1.29\", helm: \"4\", deployer: argocd}\n");
    assertEquals(List.of(), r.errors());
    assertEquals(new Targets(new Version(1, 29), Targets.Helm.V4, Targets.Deployer.ARGOCD), r.config().targets());
    assertEquals(Targets.Helm.V3, read("targets:\n  helm: 3\n").config().targets().helm());
    assertEquals(Targets.Deployer.FLUX, read("targets:\n  deployer: Flux\n").config().targets().deployer());
  }

  @Test
  void badTargetsAreErrorsWithPositions() {
    ConfigReader.Result r = read("""
        targets:
          helm: "2"
          deployer: spinnaker
          helmVersion: "4"
          kubernetes: latest
        """);
    assertEquals(List.of(
        "2:9: targets.helm must be \"3\" or \"4\"",
        "3:13: targets.deployer must be helm, argocd or flux",
        "4:3: unknown target \"helmVersion\"; known: deployer, helm, kubernetes",
        "5:15: targets.kubernetes must be a version such as \"1.34\""), r.errors());
    assertEquals(Targets.DEFAULT, r.config().targets());
  }

  @Test
  void helmValuesSetsAndSetValuesAreRead() {
    ConfigReader.Result r = read("""
        helm:
          values: [ci/prod.yaml, /abs/extra.yaml]
          set: {image.tag: "1.2", replicas: 3}
        """);
    assertEquals(List.of(), r.errors());
    assertEquals(new Config.Charts(List.of("ci/prod.yaml", "/abs/extra.yaml"),
        java.util.Map.of("image.tag", "1.2", "replicas", "3")), r.config().charts());
    assertEquals(Config.Charts.NONE, read("rules: {}\n").config().charts());
  }

  @Test
  void theReleaseNameAndNamespaceAreReadAndHeldToHelmsRules() {
    Config.Charts charts = read("helm:\n  releaseName: shop\n  namespace: web\n").config().charts();
    assertEquals("shop", charts.releaseName());
    assertEquals("web", charts.namespace());
    ConfigReader.Result bad = read("helm:\n  releaseName: Shop_1\n  namespace: [web]\n");
    assertEquals(List.of("2:16: helm.releaseName: \"Shop_1\" is no release name Helm takes: lower-case letters,"
        + " digits, '-' and '.', starting and ending with a letter or digit, at most 53 characters",
        "3:14: helm.namespace must be a name"), bad.errors());
    assertEquals(null, bad.config().charts().releaseName());
  }

  @Test
  void badHelmSettingsAreErrorsWithPositions() {
    ConfigReader.Result r = read("""
        helm:
          values: ci/prod.yaml
          set: [a]
          valuesFiles: []
        """);
    assertEquals(List.of(
        "2:11: helm.values must be a list of values files",
        "3:8: helm.set must be a mapping of value path to value, such as {image.tag: \"1.2\"}",
        "4:3: unknown helm setting \"valuesFiles\"; known: namespace, releaseName, set, values"), r.errors());
    ConfigReader.Result set = read("""
        helm:
          set: {"a[x]": 1, b: "{x", c: "d,e=f"}
        """);
    assertEquals(List.of(
        "2:9: helm.set a[x]: error parsing index: \"x\" is not a number, as on helm's --set",
        "2:20: helm.set b: list must terminate with '}', as on helm's --set"), set.errors());
    assertEquals(java.util.Map.of("c", "d,e=f"), set.config().charts().set(), "read as --set c=d,e=f");
    assertEquals(List.of("1:7: helm must be a mapping with values, set, releaseName and namespace"),
        read("helm: yes\n").errors());
  }

  @Test
  void aBaselineIsAPathAndAnythingElseIsAnErrorWithItsPosition() {
    ConfigReader.Result r = read("baseline: ci/accepted.json\n");
    assertEquals(List.of(), r.errors());
    assertEquals("ci/accepted.json", r.baseline());
    assertEquals(null, read("rules: {}\n").baseline());
    assertEquals(List.of("1:11: baseline must be the path of a baseline file, such as .hooklens-baseline.json"),
        read("baseline: [a.json]\n").errors());
  }
}
