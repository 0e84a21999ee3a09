package io.hooklens.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.TestPaths;
import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.RuleRegistry;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.rules.BuiltInRules;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DidChangeConfigurationParams;
import org.eclipse.lsp4j.DidSaveTextDocumentParams;
import org.eclipse.lsp4j.MessageType;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.TextDocumentContentChangeEvent;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Chart-wide diagnostics over real JSON-RPC, rendered with real Helm: a template's findings that only values
 * decide, with the values sets that produce them; the editor's values sets and set values; edits and saves.
 */
class ChartDiagnosticsTest {
  @TempDir
  Path dir;

  private Path shop() throws Exception {
    return TestPaths.chartCopy("shop", dir);
  }

  private static Optional<Diagnostic> rule(PublishDiagnosticsParams p, String id) {
    return p.getDiagnostics().stream().filter(d -> d.getCode().getLeft().equals(id)).findFirst();
  }

  private static boolean has(PublishDiagnosticsParams p, String id) {
    return rule(p, id).isPresent();
  }

  @Test
  void anOpenTemplateGetsTheRenderedChartsFindingsWithTheirValuesSets() throws Exception {
    Path shop = shop();
    Path deployment = shop.resolve("templates/deployment.yaml");
    String uri = deployment.toUri().toString();
    String text = Files.readString(deployment);
    try (LspSession s = LspSession.start()) {
      s.open(uri, "helm", text);
      PublishDiagnosticsParams p = s.client.awaitDiagnostics(uri, d -> has(d, "HL401"));
      // The grace period and the sleep come from values: read alone, the template cannot say. Each values set
      // that gives a different message has a diagnostic of its own.
      List<String> messages = p.getDiagnostics().stream().filter(x -> x.getCode().getLeft().equals("HL401"))
          .map(x -> x.getMessage().getLeft()).toList();
      assertEquals(2, messages.size(), messages::toString);
      assertTrue(messages.stream().anyMatch(m -> m.contains("needs 45s but the grace period is 30s")
          && m.endsWith("[values: values.yaml, ci/defaults-values.yaml]")), messages::toString);
      assertTrue(messages.stream().anyMatch(m -> m.contains("needs 45s but the grace period is 20s")
          && m.endsWith("[values: ci/short-grace-values.yaml]")), messages::toString);
      Diagnostic d = rule(p, "HL401").get();
      assertEquals(25, d.getRange().getStart().getLine(), "on the template's preStop line");
      // A template that is not open gets its findings too.
      PublishDiagnosticsParams job = s.client.awaitDiagnostics(shop.resolve("templates/migrate-job.yaml").toUri()
          .toString(), q -> has(q, "HL105"));
      assertEquals(30, rule(job, "HL105").get().getRange().getStart().getLine());

      // An edit makes them stale: gone until the file is saved again.
      s.change(uri, 2, new TextDocumentContentChangeEvent("# edited\n" + text));
      s.client.awaitDiagnostics(uri, q -> q.getVersion() != null && q.getVersion() == 2 && !has(q, "HL401"));
      Files.writeString(deployment, "# edited\n" + text);
      s.remote.getTextDocumentService().didSave(new DidSaveTextDocumentParams(new TextDocumentIdentifier(uri)));
      Diagnostic again = rule(s.client.awaitDiagnostics(uri, q -> has(q, "HL401")), "HL401").get();
      assertEquals(26, again.getRange().getStart().getLine(), "found in the saved text, one line lower");
    }
  }

  @Test
  void aBlockFromAValuesFileIsShownThereWithTheTemplateLineAsRelatedInformation() throws Exception {
    // On preStop in the values file; related: the template's key above the helper's include.
    assertShownOn("values-place", "ci/lifecycle-values.yaml", "HL125", new Position(2, 2), 12);
  }

  @Test
  void aValueAHelperWritesIsShownOnTheHelperWithTheIncludeAsRelatedInformation() throws Exception {
    // On the seconds the helper writes; related: the template's line that includes the helper.
    assertShownOn("helper-place", "templates/_helpers.tpl", "HL105", new Position(5, 15), 16);
  }

  /**
   * Opening a chart's templates/deployment.yaml shows a rule's finding on another file of the chart, starting at a
   * place, with one related location on a line of the template.
   */
  private void assertShownOn(String chartName, String file, String id, Position at, int templateLine)
      throws Exception {
    Path chart = TestPaths.chartCopy(chartName, dir);
    Path deployment = chart.resolve("templates/deployment.yaml");
    Diagnostic d;
    try (LspSession s = LspSession.start()) {
      s.open(deployment.toUri().toString(), "helm", Files.readString(deployment));
      d = rule(s.client.awaitDiagnostics(chart.resolve(file).toUri().toString(), q -> has(q, id)), id).get();
    }
    assertEquals(at, d.getRange().getStart(), d.toString());
    assertEquals(1, d.getRelatedInformation().size(), d.toString());
    var related = d.getRelatedInformation().get(0).getLocation();
    assertEquals(deployment.toUri().toString(), related.getUri());
    assertEquals(templateLine, related.getRange().getStart().getLine(), d.toString());
  }

  @Test
  void theEditorsValuesSetsAndSetValuesRenderTheChartAgain() throws Exception {
    Path shop = shop();
    Files.writeString(shop.resolve("prod.yaml"), "drainSeconds: 100\n");
    String uri = shop.resolve("templates/deployment.yaml").toUri().toString();
    try (LspSession s = LspSession.start()) {
      s.open(uri, "helm", Files.readString(shop.resolve("templates/deployment.yaml")));
      s.client.awaitDiagnostics(uri, d -> has(d, "HL401"));
      s.remote.getWorkspaceService().didChangeConfiguration(new DidChangeConfigurationParams(LspSession.json(
          "{\"hooklens\": {\"helm\": {\"values\": [\"prod.yaml\"], \"set\": {\"grace\": 60}}}}")));
      Diagnostic d = rule(s.client.awaitDiagnostics(uri, p -> rule(p, "HL401")
          .filter(x -> x.getMessage().getLeft().contains("[values: prod.yaml]")).isPresent()), "HL401").get();
      // grace=60 applies to every values set: only prod.yaml's 100 s sleep is over it.
      assertTrue(d.getMessage().getLeft().contains("needs 100s but the grace period is 60s"), d.toString());

      // Values that fix it: the diagnostic goes.
      Files.writeString(shop.resolve("prod.yaml"), "drainSeconds: 10\n");
      s.remote.getTextDocumentService().didSave(new DidSaveTextDocumentParams(new TextDocumentIdentifier(
          shop.resolve("prod.yaml").toUri().toString())));
      s.client.awaitDiagnostics(uri, p -> !has(p, "HL401"));
    }
  }

  /** Whether HL221, whose hook names come from the release name or namespace, names {@code hook}. */
  private static boolean orders(PublishDiagnosticsParams p, String hook) {
    return rule(p, "HL221").filter(d -> d.getMessage().getLeft().contains(hook + " runs")).isPresent();
  }

  @Test
  void theEditorsReleaseNameAndNamespaceWinOverTheConfigurationAndABadOneIsShownAndLeftOut() throws Exception {
    Path release = TestPaths.chartCopy("release-bound", dir);
    Path namespace = TestPaths.chartCopy("namespace-bound", dir);
    Files.writeString(dir.resolve(".hooklens.yaml"), "helm:\n  releaseName: zeta\n  namespace: apps\n");
    String byRelease = release.resolve("templates/hooks.yaml").toUri().toString();
    String byNamespace = namespace.resolve("templates/incorrect.yaml").toUri().toString();
    try (LspSession s = LspSession.start()) {
      s.open(byRelease, "helm", Files.readString(release.resolve("templates/hooks.yaml")));
      s.open(byNamespace, "helm", Files.readString(namespace.resolve("templates/incorrect.yaml")));
      s.client.awaitDiagnostics(byRelease, p -> orders(p, "Job/pre-install-zeta-dashboard"));
      s.client.awaitDiagnostics(byNamespace, p -> orders(p, "Job/apps-migrate"));

      s.remote.getWorkspaceService().didChangeConfiguration(new DidChangeConfigurationParams(LspSession.json(
          "{\"hooklens\": {\"helm\": {\"releaseName\": \"web\", \"namespace\": \"build\"}}}")));
      s.client.awaitDiagnostics(byRelease, p -> orders(p, "Job/pre-install-web-dashboard"));
      s.client.awaitDiagnostics(byNamespace, p -> orders(p, "Job/build-migrate"));

      s.remote.getWorkspaceService().didChangeConfiguration(new DidChangeConfigurationParams(LspSession.json(
          "{\"hooklens\": {\"helm\": {\"releaseName\": \"Web_1\", \"namespace\": \"Build\"}}}")));
      String shown = s.client.awaitShown(m -> m.getMessage().contains("hooklens.helm.releaseName")).getMessage();
      assertTrue(shown.contains("hooklens.helm.releaseName: \"Web_1\" is no release name Helm takes"), shown);
      assertTrue(shown.contains("hooklens.helm.namespace: \"Build\" is no namespace name"), shown);
      assertFalse(shown.contains("Exception"), shown);
      // Left out: the charts render with the configuration's names again, and the server goes on.
      s.client.awaitDiagnostics(byRelease, p -> orders(p, "Job/pre-install-zeta-dashboard"));
      s.client.awaitDiagnostics(byNamespace, p -> orders(p, "Job/apps-migrate"));
    }
  }

  @Test
  void aTemplateSavedAsUtf16GetsHelmsRefusalOnItAsInTheCli() throws Exception {
    Path shop = shop();
    Path job = shop.resolve("templates/migrate-job.yaml");
    Files.write(job, Files.readString(job).getBytes(StandardCharsets.UTF_16));
    String uri = shop.resolve("templates/deployment.yaml").toUri().toString();
    try (LspSession s = LspSession.start()) {
      s.open(uri, "helm", Files.readString(shop.resolve("templates/deployment.yaml")));
      PublishDiagnosticsParams p = s.client.awaitDiagnostics(job.toUri().toString(), q -> has(q, "HL005"));
      String message = rule(p, "HL005").get().getMessage().getLeft();
      assertTrue(message.contains("YAML parse error on shop/templates/migrate-job.yaml"), message);
      assertEquals(new Position(0, 0), rule(p, "HL005").get().getRange().getStart());
    }
  }

  @Test
  void aValuesFileHelmRefusesIsShownWhereItIs() throws Exception {
    Path shop = shop();
    Path values = shop.resolve("values.yaml");
    String uri = shop.resolve("templates/deployment.yaml").toUri().toString();
    try (LspSession s = LspSession.start()) {
      s.open(uri, "helm", Files.readString(shop.resolve("templates/deployment.yaml")));
      s.client.awaitDiagnostics(uri, d -> has(d, "HL401"));
      Files.writeString(values, Files.readString(values) + "broken: [\n");
      s.remote.getTextDocumentService().didSave(new DidSaveTextDocumentParams(new TextDocumentIdentifier(
          values.toUri().toString())));
      PublishDiagnosticsParams p = s.client.awaitDiagnostics(values.toUri().toString(), q -> has(q, "HL005"));
      assertTrue(rule(p, "HL005").get().getMessage().getLeft().contains("values.yaml"), p.toString());
      List<Diagnostic> template = s.client.awaitDiagnostics(uri, q -> !has(q, "HL401")).getDiagnostics();
      assertFalse(template.stream().anyMatch(d -> d.getMessage().getLeft().contains("[values: values.yaml")), template::toString);
    }
  }

  /**
   * A rule with bugs the rendered chart brings out: an exception where a manifest says "fail-the-rule", which costs
   * that rule's findings only; running out of memory where it says "exhaust-memory", which costs the whole render.
   */
  @RuleInfo(id = "HL997", name = "fails-on-rendered-text", summary = "Fails on some rendered text",
      severity = Severity.ERROR, remediation = "Fix the rule.", messages = @Message(id = "never", text = "never"))
  static final class FailsOnRenderedText implements Rule {
    @Override
    public void check(HookDocument doc, RuleContext ctx) {
      if (doc.source().text().contains("fail-the-rule")) {
        throw new IllegalStateException("boom");
      }
      if (doc.source().text().contains("exhaust-memory")) {
        throw new OutOfMemoryError("Java heap space");
      }
    }
  }

  @Test
  void aRenderThatFailsLeavesNoStaleDiagnosticsButOneOnChartYamlThatSaysSo() throws Exception {
    Path shop = shop();
    Path values = shop.resolve("values.yaml");
    String uri = shop.resolve("templates/deployment.yaml").toUri().toString();
    String job = shop.resolve("templates/migrate-job.yaml").toUri().toString();
    String chartYaml = shop.resolve("Chart.yaml").toUri().toString();
    String valuesUri = values.toUri().toString();
    String original = Files.readString(values);
    List<Rule> rules = new ArrayList<>(BuiltInRules.all());
    rules.add(new FailsOnRenderedText());
    try (LspSession s = LspSession.start(new RuleRegistry(rules), LspSession.json("{\"hooklens\": {\"debounceMs\": 0}}"),
        c -> { }, c -> { })) {
      s.open(uri, "helm", Files.readString(shop.resolve("templates/deployment.yaml")));
      s.client.awaitDiagnostics(uri, d -> has(d, "HL401"));
      s.client.awaitDiagnostics(job, d -> has(d, "HL105"));

      // A rule fails on the rendered chart: its findings are missing, the others' are there, and Chart.yaml says so.
      Files.writeString(values, original.replace("drainSeconds: 45", "drainSeconds: \"45; fail-the-rule\""));
      s.remote.getTextDocumentService().didSave(new DidSaveTextDocumentParams(new TextDocumentIdentifier(valuesUri)));
      PublishDiagnosticsParams partial = s.client.awaitDiagnostics(chartYaml,
          p -> p.getDiagnostics().stream().anyMatch(DiagnosticsTest::isNotChecked));
      assertEquals("Hooklens could not fully check this chart: rule HL997 failed with an internal error, so its"
          + " problems are not shown. The language server's log has the details.",
          DiagnosticsTest.notChecked(partial.getDiagnostics()).getMessage().getLeft());
      s.client.awaitDiagnostics(job, d -> has(d, "HL105"));
      s.client.awaitLog(m -> m.getType() == MessageType.Error && m.getMessage().contains("HL997")
          && m.getMessage().contains("boom"));

      // The whole render fails: no finding of an earlier render is left anywhere, and Chart.yaml says why.
      Files.writeString(values, original.replace("drainSeconds: 45", "drainSeconds: \"45; exhaust-memory\""));
      s.remote.getTextDocumentService().didSave(new DidSaveTextDocumentParams(new TextDocumentIdentifier(valuesUri)));
      PublishDiagnosticsParams failed = s.client.awaitDiagnostics(chartYaml,
          p -> p.getDiagnostics().stream().anyMatch(d -> d.getMessage().getLeft().startsWith(
              "Hooklens could not check this chart")));
      assertEquals(1, failed.getDiagnostics().size(), failed::toString);
      DiagnosticsTest.notChecked(failed.getDiagnostics());
      s.client.awaitDiagnostics(job, p -> p.getDiagnostics().isEmpty());
      List<Diagnostic> template = s.client.awaitDiagnostics(uri, p -> !has(p, "HL401")).getDiagnostics();
      assertFalse(template.stream().anyMatch(d -> d.getMessage().getLeft().contains("[values:")), template::toString);
      s.client.awaitLog(m -> m.getType() == MessageType.Error && m.getMessage().startsWith("cannot render chart")
          && !m.getMessage().contains("\tat "));

      // Values the rule can take: the chart is checked again, and Chart.yaml has nothing more to say.
      Files.writeString(values, original);
      s.remote.getTextDocumentService().didSave(new DidSaveTextDocumentParams(new TextDocumentIdentifier(valuesUri)));
      s.client.awaitDiagnostics(uri, d -> has(d, "HL401"));
      s.client.awaitDiagnostics(chartYaml, p -> p.getDiagnostics().isEmpty());
    }
  }
}
