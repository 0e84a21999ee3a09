package io.hooklens.lsp;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.RunawayCharts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DidSaveTextDocumentParams;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.TextDocumentContentChangeEvent;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A chart whose rendering runs away, opened in the editor: the server stops the render at its limit, shows why on
 * the chart, and renders the chart again once it is fixed. Over real JSON-RPC, with real Helm.
 */
@Tag("slow")
class ChartRenderLimitsTest {
  /** A hook whose unknown event a template action writes: HL201, which only the rendered chart shows. */
  private static final String FIXED = """
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: spins
        annotations:
          helm.sh/hook: {{ "pre-instal" }}
      """;

  @TempDir
  Path dir;

  private static boolean stopped(PublishDiagnosticsParams p) {
    return p.getDiagnostics().stream().anyMatch(d -> d.getCode().getLeft().equals("HL005")
        && d.getMessage().getLeft().contains("Helm rendering stopped: it ran longer than 2 s"));
  }

  private static boolean rendered(PublishDiagnosticsParams p) {
    return p.getDiagnostics().stream().map(Diagnostic::getMessage)
        .anyMatch(m -> m.getLeft().contains("pre-instal") && m.getLeft().endsWith("[values: values.yaml]"));
  }

  @Test
  void aChartThatLoopsIsStoppedAndRendersAgainOnceFixed() throws Exception {
    Path chart = RunawayCharts.write(dir, "spins", RunawayCharts.SPINS);
    Path template = chart.resolve("templates/spins.yaml");
    String uri = template.toUri().toString();
    String chartYaml = chart.resolve("Chart.yaml").toUri().toString();
    RunawayCharts.withProperties(Map.of(RunawayCharts.TIMEOUT, "2"), () -> {
      try (LspSession s = LspSession.start()) {
        s.open(uri, "helm", RunawayCharts.SPINS);
        s.client.awaitDiagnostics(chartYaml, ChartRenderLimitsTest::stopped);

        s.change(uri, 2, new TextDocumentContentChangeEvent(FIXED));
        Files.writeString(template, FIXED);
        s.remote.getTextDocumentService().didSave(new DidSaveTextDocumentParams(new TextDocumentIdentifier(uri)));
        PublishDiagnosticsParams fixed = s.client.awaitDiagnostics(uri, ChartRenderLimitsTest::rendered);
        assertTrue(fixed.getDiagnostics().stream().noneMatch(d -> d.getCode().getLeft().equals("HL005")),
            fixed::toString);
        s.client.awaitDiagnostics(chartYaml, p -> !stopped(p));
      }
      return null;
    });
  }
}
