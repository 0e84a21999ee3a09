package io.hooklens.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.RuleRegistry;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.rules.BuiltInRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DidCloseTextDocumentParams;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.TextDocumentContentChangeEvent;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.junit.jupiter.api.Test;

/** Incremental sync over real JSON-RPC: the server's text follows the client's through any edit. */
class DocumentSyncTest {
  /** The header stays intact, so the file stays a manifest and its diagnostics say something. */
  private static final String HEADER = "apiVersion: v1\r\nkind: Pod\r\n";
  private static final String BODY = """
      metadata:
        name: 😀 web # ключ
        annotations: {helm.sh/hook: pre-instal}
      spec:
        terminationGracePeriodSeconds: 10
        containers:
          - name: app
            image: nginx
            lifecycle:
              preStop:
                exec:
                  command: ["sh", "-c", "nginx -s quit; sleep 20"]
      """.replace("\n", "\r\n").replace("  containers:\r\n", "  containers:\n");
  private static final String[] INSERTS = {"x", "😀", "é", "\n", "\r\n", "\r", "  ", ": ", "- ", "# 😀 note\r\n",
      "- name: y\n", "\t", "ключ: 1", "preStop:\n", "\"", "[", "}"};

  /** Line breaks as LSP counts them: {@code \n}, {@code \r\n} and a lone {@code \r}. */
  private static Position position(String text, int offset) {
    int line = 0;
    int lineStart = 0;
    for (int i = 0; i < offset; i++) {
      char c = text.charAt(i);
      if (c == '\n' || (c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n'))) {
        line++;
        lineStart = i + 1;
      }
    }
    return new Position(line, offset - lineStart);
  }

  /** Moves an offset off the middle of a surrogate pair or of a CRLF, where no LSP position points. */
  private static int representable(String text, int offset) {
    if (offset > 0 && offset < text.length()) {
      boolean inPair = Character.isHighSurrogate(text.charAt(offset - 1))
          && Character.isLowSurrogate(text.charAt(offset));
      boolean inCrlf = text.charAt(offset - 1) == '\r' && text.charAt(offset) == '\n';
      if (inPair || inCrlf) {
        return offset - 1;
      }
    }
    return offset;
  }

  private static List<String> comparable(List<Diagnostic> ds) {
    List<String> out = new ArrayList<>();
    for (Diagnostic d : ds) {
      StringBuilder sb = new StringBuilder(d.getCode().getLeft() + " " + d.getRange() + " " + d.getMessage());
      if (d.getRelatedInformation() != null) {
        d.getRelatedInformation().forEach(r -> sb.append(" / ").append(r.getLocation().getRange()));
      }
      out.add(sb.toString());
    }
    return out;
  }

  @Test
  void twoHundredRandomEditsLeaveTheServerWithTheClientsText() throws Exception {
    Random random = new Random(20251122);
    String uri = "file:///work/edited.yaml";
    String text = HEADER + BODY;
    try (LspSession session = LspSession.start()) {
      session.open(uri, "yaml", text);
      int version = 1;
      for (int edit = 1; edit <= 200; edit++) {
        List<TextDocumentContentChangeEvent> changes = new ArrayList<>();
        int count = 1 + random.nextInt(3);
        for (int c = 0; c < count; c++) {
          if (random.nextInt(40) == 0) {
            text = HEADER + BODY.substring(random.nextInt(BODY.length() / 2));
            text = text.substring(0, representable(text, text.length() - 1) + 1);
            changes.add(new TextDocumentContentChangeEvent(text));
            continue;
          }
          int a = representable(text, HEADER.length() + random.nextInt(text.length() - HEADER.length() + 1));
          int b = representable(text, Math.min(text.length(), a + random.nextInt(12)));
          String inserted = random.nextInt(4) == 0 ? "" : INSERTS[random.nextInt(INSERTS.length)];
          changes.add(new TextDocumentContentChangeEvent(new Range(position(text, a), position(text, b)), inserted));
          text = text.substring(0, a) + inserted + text.substring(b);
        }
        session.change(uri, ++version, changes.toArray(TextDocumentContentChangeEvent[]::new));
        if (edit % 25 == 0) {
          // Observable: the edited document reports exactly what the same text reports when opened whole.
          List<Diagnostic> edited = session.client.awaitDiagnostics(uri, version).getDiagnostics();
          String fresh = "file:///work/fresh-" + edit + ".yaml";
          session.open(fresh, "yaml", text);
          List<Diagnostic> whole = session.client.awaitDiagnostics(fresh, 1).getDiagnostics();
          assertEquals(comparable(whole), comparable(edited), "after edit " + edit);
          session.remote.getTextDocumentService().didClose(new DidCloseTextDocumentParams(
              new TextDocumentIdentifier(fresh)));
        }
      }
      assertEquals(text, session.server.documents().get(uri).text());
      List<Integer> versions = session.client.publications(uri).stream().map(PublishDiagnosticsParams::getVersion)
          .toList();
      for (int i = 1; i < versions.size(); i++) {
        assertTrue(versions.get(i) >= versions.get(i - 1), "published in version order: " + versions);
      }
    }
  }

  @Test
  void aBurstOfEditsPublishesOnlyTheLastVersion() throws Exception {
    String uri = "file:///work/burst.yaml";
    try (LspSession session = LspSession.start(LspSession.json("{\"hooklens\": {\"debounceMs\": 1000}}"))) {
      session.open(uri, "yaml", HEADER + BODY);
      session.client.awaitDiagnostics(uri, 1);
      for (int v = 2; v <= 11; v++) {
        Position end = new Position(2 + v, 0);
        session.change(uri, v, new TextDocumentContentChangeEvent(new Range(end, end), "# edit " + v + "\r\n"));
      }
      PublishDiagnosticsParams last = session.client.awaitDiagnostics(uri, 11);
      assertEquals(List.of(1, 11), session.client.publications(uri).stream()
          .map(PublishDiagnosticsParams::getVersion).toList());
      assertTrue(last.getDiagnostics().stream().anyMatch(d -> d.getCode().getLeft().equals("HL201")));
    }
  }

  /** A rule that holds its first check until the test releases it, so that edits pile up meanwhile. */
  @RuleInfo(id = "HL998", name = "holds-first-check", summary = "Holds its first check until released",
      severity = Severity.INFO, remediation = "Release it.", messages = @Message(id = "never", text = "never reported"))
  static final class HoldsFirstCheck implements Rule {
    final CountDownLatch started = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    final AtomicInteger checks = new AtomicInteger();

    @Override
    public void check(HookDocument doc, RuleContext ctx) {
      if (checks.incrementAndGet() == 1) {
        started.countDown();
        try {
          release.await(RecordingClient.TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  @Test
  void editsDuringAValidationCoalesceIntoOneValidationOfTheNewestTextWithoutADebounce() throws Exception {
    HoldsFirstCheck holds = new HoldsFirstCheck();
    List<Rule> rules = new ArrayList<>(BuiltInRules.all());
    rules.add(holds);
    String uri = "file:///work/coalesce.yaml";
    // The default settings: no debounce delay.
    try (LspSession session = LspSession.start(new RuleRegistry(rules), null, c -> { }, c -> { })) {
      session.open(uri, "yaml", HEADER + BODY);
      assertTrue(holds.started.await(RecordingClient.TIMEOUT_MS, TimeUnit.MILLISECONDS));
      for (int v = 2; v <= 11; v++) {
        Position end = new Position(2 + v, 0);
        session.change(uri, v, new TextDocumentContentChangeEvent(new Range(end, end), "# edit " + v + "\r\n"));
        // Messages are handled in order and workers take tasks in order: once this answer is back, the
        // server has the edit and a free worker has seen its validation.
        session.symbols(uri);
      }
      holds.release.countDown();
      PublishDiagnosticsParams last = session.client.awaitDiagnostics(uri, 11);
      assertTrue(last.getDiagnostics().stream().anyMatch(d -> d.getCode().getLeft().equals("HL201")));
      // Version 1 was stale when its validation ended; versions 2 to 10 were never read.
      assertEquals(List.of(11), session.client.publications(uri).stream()
          .map(PublishDiagnosticsParams::getVersion).toList());
      assertEquals(2, holds.checks.get());
    }
  }
}
