package io.hooklens;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.core.engine.Config;
import io.hooklens.core.engine.Finding;
import io.hooklens.core.engine.LintResult;
import io.hooklens.core.engine.Linter;
import io.hooklens.rules.BuiltInRules;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Lints the shared corpus of real public manifests. Nothing may crash anywhere, and the findings on
 * {@code manifests/} and {@code openshift/} must equal the reviewed snapshots in
 * {@code src/test/resources/corpus/}. After a deliberate change, regenerate them with
 * {@code -Dhooklens.updateSnapshots=true} and review the diff.
 */
class CorpusTest {
  private static final Linter LINTER = new Linter(BuiltInRules.registry());

  static List<Path> files(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile)
          .filter(p -> p.getFileName().toString().matches(".*\\.(ya?ml|json)"))
          .sorted().toList();
    }
  }

  private static String lintToSnapshot(Path dir) throws IOException {
    StringBuilder sb = new StringBuilder();
    List<String> failures = new ArrayList<>();
    for (Path f : files(dir)) {
      String name = dir.relativize(f).toString();
      LintResult r = LINTER.lint(name, Files.readAllBytes(f), Config.DEFAULT);
      r.failures().forEach(x -> failures.add(name + ": " + x.ruleId() + ": " + x.error()));
      for (Finding x : r.findings()) {
        sb.append(name).append(':').append(x.range().start().line() + 1).append(':')
            .append(x.range().start().column() + 1).append(' ').append(x.ruleId()).append(' ')
            .append(x.severity().label()).append(' ').append(x.message()).append('\n');
      }
    }
    assertEquals(List.of(), failures, "internal errors on the corpus");
    return sb.toString();
  }

  private static void compare(String part) throws IOException {
    String actual = lintToSnapshot(TestPaths.corpus().resolve(part));
    Path snapshot = TestPaths.repoRoot().resolve("language-server/src/test/resources/corpus/" + part + ".snapshot");
    if (Boolean.getBoolean("hooklens.updateSnapshots")) {
      Files.writeString(snapshot, actual, StandardCharsets.UTF_8);
    }
    String expected = Files.isRegularFile(snapshot) ? Files.readString(snapshot, StandardCharsets.UTF_8) : "";
    assertEquals(expected, actual, "findings on corpus/" + part + " changed; review, then update " + snapshot);
  }

  @Test
  void manifestsMatchTheReviewedSnapshot() throws IOException {
    compare("manifests");
  }

  @Test
  void openshiftMatchesTheReviewedSnapshot() throws IOException {
    compare("openshift");
  }

  @Test
  void everyChartFileLintsWithoutInternalErrors() throws IOException {
    List<Path> files = files(TestPaths.corpus().resolve("charts"));
    assertTrue(files.size() > 1000, "the chart corpus is there");
    lintToSnapshot(TestPaths.corpus().resolve("charts"));
  }

  @Test
  void knownRealBugsAreFound() throws IOException {
    String manifests = lintToSnapshot(TestPaths.corpus().resolve("manifests"))
        + lintToSnapshot(TestPaths.corpus().resolve("openshift"));
    for (String expected : KNOWN) {
      String file = expected.split(" ")[0];
      String rule = expected.split(" ")[1];
      assertTrue(manifests.lines().anyMatch(l -> l.startsWith(file + ":") && l.contains(" " + rule + " ")),
          "not found: " + expected);
    }
  }

  /** Real bugs from corpus/INDEX.md: file name, then the rule that must report it. */
  private static final List<String> KNOWN = List.of(
      "kubernetes__ingress-nginx__deploy__static__provider__kind__deploy.yaml HL403",
      "projectcalico__calico__manifests__calico.yaml HL403",
      "projectcalico__calico__manifests__calico-etcd.yaml HL403",
      "projectcalico__calico__manifests__canal-etcd.yaml HL403",
      "kubernetes__api__testdata__HEAD__core.v1.Pod.yaml HL118",
      "kubernetes__api__testdata__HEAD__core.v1.Pod.yaml HL119",
      "kubernetes__api__testdata__HEAD__core.v1.Pod.yaml HL102",
      "kubernetes__api__testdata__HEAD__core.v1.Pod.yaml HL103",
      "kubernetes__api__testdata__HEAD__apps.v1.Deployment.yaml HL102",
      "GoogleCloudPlatform__kubernetes-engine-samples__ai-ml__infw-gw__examples__getting-started__vllm-llama3-8b-instruct.yaml HL001",
      "openshift__openshift-ansible__roles__openshift_examples__files__examples__v1.0__quickstart-templates__cakephp-mysql.json HL311",
      "openshift__library__official__cakephp__templates__cakephp-mysql-example.json HL322",
      "sclorg__cakephp-ex__openshift__templates__cakephp-mysql.json HL322",
      "sclorg__cakephp-ex__openshift__templates__cakephp-mysql-persistent.json HL322",
      "sclorg__rails-ex__openshift__templates__rails-postgresql.json HL322",
      "sclorg__rails-ex__openshift__templates__rails-postgresql-persistent.json HL322",
      "openshift__openshift-ansible__roles__openshift_examples__files__examples__latest__quickstart-templates__amp.yaml HL314",
      "sclorg__dancer-ex__openshift__templates__dancer-mysql.json HL314",
      "sclorg__rails-ex__example__template__ruby-rails-example-with-postgresql.json HL314",
      "openshift__origin__test__testdata__complete-dc-hooks.yaml HL314",
      "openshift__origin__test__extended__testdata__deployments__failing-pre-hook.yaml HL316");
}
