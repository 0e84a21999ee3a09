package io.hooklens.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** .helmignore rules as Helm 3's ignore package applies them. */
class HelmIgnoreTest {
  private static HelmIgnore rules(String text) {
    return HelmIgnore.parse(text).orElseThrow();
  }

  @Test
  void aRuleWithoutASlashMatchesTheLastPathElement() {
    HelmIgnore r = rules("# editors\n*.swp\n\nREADME.md\r\n");
    assertTrue(r.ignores("templates/deployment.yaml.swp", false));
    assertTrue(r.ignores("README.md", false));
    assertTrue(r.ignores("charts/db/README.md", false));
    assertFalse(r.ignores("templates/deployment.yaml", false));
  }

  @Test
  void aRuleWithASlashMatchesTheWholePathAndStarsStopAtSlashes() {
    HelmIgnore r = rules("ci/*\n/docs\n");
    assertTrue(r.ignores("ci/test-values.yaml", false));
    assertFalse(r.ignores("ci/nested/values.yaml", false));
    assertTrue(r.ignores("docs", true));
    assertFalse(r.ignores("charts/db/docs", true), "a leading slash anchors the rule at the chart");
  }

  @Test
  void aTrailingSlashMatchesFoldersOnly() {
    HelmIgnore r = rules("tests/\n");
    assertTrue(r.ignores("templates/tests", true));
    assertFalse(r.ignores("tests", false));
  }

  @Test
  void classesQuestionMarksAndEscapesAreGoGlobs() {
    HelmIgnore r = rules("file[0-9].txt\n[^a]?.md\nstar\\*.yaml\n");
    assertTrue(r.ignores("file7.txt", false));
    assertFalse(r.ignores("filex.txt", false));
    assertTrue(r.ignores("bc.md", false));
    assertFalse(r.ignores("ac.md", false));
    assertTrue(r.ignores("star*.yaml", false));
    assertFalse(r.ignores("starx.yaml", false));
  }

  @Test
  void aNegatedRuleIgnoresEveryPathItDoesNotMatchAsHelmDoes() {
    HelmIgnore r = rules("!templates\n");
    assertFalse(r.ignores("templates", true));
    assertTrue(r.ignores("values.yaml", false));
  }

  @Test
  void dotFilesInTemplatesAreIgnoredByDefault() {
    HelmIgnore r = rules(null);
    assertTrue(r.ignores("templates/.secret.yaml", false));
    assertFalse(r.ignores("templates/sub/.keep", false), "only directly under templates/");
    assertFalse(r.ignores(".helmignore", false));
  }

  @Test
  void rulesHelmRefusesOrThatAreNotTranslatedGiveNothing() {
    assertEquals(Optional.empty(), HelmIgnore.parse("**/*.tmp\n"));
    assertEquals(Optional.empty(), HelmIgnore.parse("broken[\n"));
    assertEquals(Optional.empty(), HelmIgnore.parse("[z-a]\n"));
    assertEquals(Optional.empty(), HelmIgnore.parse("trailing\\\n"));
  }
}
