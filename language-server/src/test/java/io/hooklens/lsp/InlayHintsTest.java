package io.hooklens.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.rules.BuiltInRules;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.ClientCapabilities;
import org.eclipse.lsp4j.InlayHint;
import org.eclipse.lsp4j.InlayHintCapabilities;
import org.eclipse.lsp4j.InlayHintParams;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.TextDocumentClientCapabilities;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.junit.jupiter.api.Test;

/** Inlay hints over real JSON-RPC: preStop budgets and Helm hook places, in the range asked for. */
class InlayHintsTest {
  private static LspSession withInlayHints() {
    return LspSession.start(BuiltInRules.registry(), LspSession.json("{\"hooklens\": {\"debounceMs\": 0}}"),
        InlayHintsTest::inlayHints, c -> { });
  }

  private static void inlayHints(ClientCapabilities caps) {
    TextDocumentClientCapabilities td = new TextDocumentClientCapabilities();
    td.setInlayHint(new InlayHintCapabilities());
    caps.setTextDocument(td);
  }

  private static List<InlayHint> hints(LspSession session, String uri, String language, String text, int fromLine,
      int toLine) throws Exception {
    session.open(uri, language, text);
    return session.remote.getTextDocumentService().inlayHint(new InlayHintParams(new TextDocumentIdentifier(uri),
        new Range(new Position(fromLine, 0), new Position(toLine, 0)))).get(RecordingClient.TIMEOUT_MS,
        TimeUnit.MILLISECONDS);
  }

  /** Each hint as {@code line:column label}. */
  private static List<String> render(List<InlayHint> hints) {
    return hints.stream().map(h -> h.getPosition().getLine() + ":" + h.getPosition().getCharacter() + " "
        + h.getLabel().getLeft()).toList();
  }

  private static final String MANIFESTS = """
      apiVersion: v1
      kind: Pod
      metadata:
        name: web
      spec:
        containers:
          - name: app
            image: nginx
            lifecycle:
              preStop:
                exec: {command: ["sh", "-c", "sleep 35"]}
          - name: drain
            image: drain
            lifecycle:
              preStop:  # drains first
                exec: {command: ["sh", "-c", "./drain && sleep 20"]}
          - name: tail
            image: tail
            lifecycle:
              preStop: {exec: {command: [tail, -f, /dev/null]}}
      ---
      apiVersion: batch/v1
      kind: Job
      metadata:
        name: migrate
        annotations:
          helm.sh/hook: pre-install,pre-upgrade
          helm.sh/hook-weight: "-5"
      spec:
        template:
          spec:
            terminationGracePeriodSeconds: 45
            restartPolicy: Never
            containers:
              - name: m
                image: m
                lifecycle:
                  preStop: {sleep: {seconds: 10}}
      ---
      apiVersion: v1
      kind: ServiceAccount
      metadata:
        name: migrate
        annotations:
          helm.sh/hook: pre-install
          helm.sh/hook-weight: "-10"
      """;

  @Test
  void preStopBudgetsAndHelmPlacesAtTheEndOfTheirLines() throws Exception {
    try (LspSession session = withInlayHints()) {
      assertEquals(Boolean.TRUE, session.initialized.getCapabilities().getInlayHintProvider().getLeft());
      List<InlayHint> all = hints(session, "file:///work/hints.yaml", "yaml", MANIFESTS, 0, 100);
      assertEquals(List.of(
          "9:16 35 s of 30 s grace (default)",
          "14:32 ≥ 20 s of 30 s grace (default)",
          "19:57 unbounded, 30 s grace (default)",
          "26:41 #2 of pre-install (weight -5), #1 of pre-upgrade (weight -5)",
          "37:43 10 s of 45 s grace",
          "44:29 #1 of pre-install (weight -10)"), render(all));
      assertTrue(all.get(0).getPaddingLeft());
      assertTrue(all.get(0).getTooltip().getRight().getValue().contains("32 s  SIGKILL"));

      assertEquals(List.of("26:41 #2 of pre-install (weight -5), #1 of pre-upgrade (weight -5)"),
          render(hints(session, "file:///work/hints.yaml", "yaml", MANIFESTS, 20, 30)), "only the lines asked for");
    }
  }

  @Test
  void jsonManifestsAndChartTemplates() throws Exception {
    try (LspSession session = withInlayHints()) {
      String json = """
          {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
           "spec": {"terminationGracePeriodSeconds": 20, "containers": [{"name": "app", "image": "nginx",
             "lifecycle": {
               "preStop": {"sleep": {"seconds": 5}}}}]}}
          """;
      assertEquals(List.of("3:46 5 s of 20 s grace"),
          render(hints(session, "file:///work/pod.json", "json", json, 0, 10)));

      String template = """
          apiVersion: batch/v1
          kind: Job
          metadata:
            name: {{ .Release.Name }}-migrate
            annotations:
              "helm.sh/hook": post-install
              "helm.sh/hook-weight": "0"
          spec:
            template:
              spec:
                terminationGracePeriodSeconds: {{ .Values.grace }}
                restartPolicy: Never
                containers:
                  - name: m
                    image: "{{ .Values.image }}"
                    lifecycle:
                      preStop:
                        sleep: {seconds: 5}
          ---
          apiVersion: batch/v1
          kind: Job
          metadata:
            name: {{ .Values.otherName }}
            annotations:
              "helm.sh/hook": post-install
          """;
      assertEquals(List.of("5:32 #1? of post-install (weight 0)", "16:20 5 s of grace from template",
          "24:32 #2? of post-install (weight 0)"),
          render(hints(session, "file:///work/chart/templates/job.yaml", "helm", template, 0, 100)));
    }
  }

  @Test
  void clientsThatShowNoInlayHintsAreNotOfferedThem() throws Exception {
    try (LspSession session = LspSession.start()) {
      assertNull(session.initialized.getCapabilities().getInlayHintProvider());
      assertEquals(Boolean.TRUE, session.initialized.getCapabilities().getHoverProvider().getLeft());
      assertEquals(List.of(":", ",", " ", "\""),
          session.initialized.getCapabilities().getCompletionProvider().getTriggerCharacters());
      assertNotNull(session.initialized.getCapabilities().getCodeLensProvider(),
          "code lenses do not depend on the client showing inlay hints");
    }
  }
}
