package io.hooklens.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.lsp4j.CompletionItem;
import org.eclipse.lsp4j.Hover;
import org.eclipse.lsp4j.HoverParams;
import org.eclipse.lsp4j.MessageType;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Completion and hover at the end of very long lines, over real JSON-RPC: the text around the cursor is read in
 * one pass, so a 20,000-character key answers as a short one does, with no stack overflow and no wait.
 */
class LongLinesTest {
  private static final int LONG = 20_000;
  /** Generous: the answers take milliseconds; a backtracking reader took seconds or overflowed. */
  private static final long PROMPTLY_MS = 5_000;
  private static final AtomicInteger FILES = new AtomicInteger();

  private LspSession session;

  @BeforeEach
  void start() {
    session = LspSession.start();
  }

  @AfterEach
  void stop() throws Exception {
    session.close();
    assertTrue(session.client.logs().stream().noneMatch(m -> m.getType() == MessageType.Error),
        () -> "no request failed: " + session.client.logs());
  }

  private static String annotations(String line) {
    return """
        apiVersion: v1
        kind: Pod
        metadata:
          name: web
          annotations:
            %s
        spec:
          containers:
            - name: app
              image: nginx
        """.formatted(line);
  }

  /** Opens the text and asks for completions at the end of line 5, timing the answer. */
  private List<String> completeAtEndOfLine5(String text) throws Exception {
    String uri = "file:///work/long" + FILES.incrementAndGet() + ".yaml";
    session.open(uri, "yaml", text);
    Position end = new Position(5, text.split("\n", -1)[5].length());
    long start = System.nanoTime();
    List<CompletionItem> items = CompletionTest.complete(session, uri, end);
    long ms = (System.nanoTime() - start) / 1_000_000;
    assertTrue(ms < PROMPTLY_MS, ms + " ms");
    Hover h = session.remote.getTextDocumentService().hover(new HoverParams(new TextDocumentIdentifier(uri), end))
        .get(PROMPTLY_MS, TimeUnit.MILLISECONDS);
    assertTrue(h == null || h.getContents() != null);
    return items.stream().map(CompletionItem::getLabel).toList();
  }

  @Test
  void aLongDoubleQuotedKeyCompletesAsAShortOneDoes() throws Exception {
    List<String> shortKey = completeAtEndOfLine5(annotations("\"a"));
    assertFalse(shortKey.isEmpty(), "annotation keys are offered");
    assertEquals(shortKey, completeAtEndOfLine5(annotations("\"" + "a".repeat(LONG))));
    // Escapes all along, and a closed key whose value is being typed.
    assertEquals(shortKey, completeAtEndOfLine5(annotations("\"" + "a\\\"".repeat(LONG / 3))));
    assertEquals(completeAtEndOfLine5(annotations("\"a\": ")),
        completeAtEndOfLine5(annotations("\"" + "a".repeat(LONG) + "\": ")));
  }

  @Test
  void aLongSingleQuotedKeyCompletesAsAShortOneDoes() throws Exception {
    List<String> shortKey = completeAtEndOfLine5(annotations("'a"));
    assertEquals(shortKey, completeAtEndOfLine5(annotations("'" + "a''".repeat(LONG / 3))));
  }

  @Test
  void aLongPlainKeyAndLongBlanksCompleteAsShortOnesDo() throws Exception {
    assertEquals(completeAtEndOfLine5(annotations("a b")),
        completeAtEndOfLine5(annotations("a" + " ".repeat(LONG) + "b")));
    assertEquals(completeAtEndOfLine5(annotations("a: : b")),
        completeAtEndOfLine5(annotations("a:" + " :".repeat(LONG / 2) + " b")));
  }

  @Test
  void aLongLineOfTemplateBracesAboveTheCursorIsPassedOver() throws Exception {
    String text = annotations("{{" + "{".repeat(LONG) + "\n    \"a");
    String uri = "file:///work/long" + FILES.incrementAndGet() + ".yaml";
    session.open(uri, "yaml", text);
    List<CompletionItem> items = CompletionTest.complete(session, uri, new Position(6, 6));
    assertTrue(items.isEmpty() || items.stream().allMatch(i -> i.getLabel() != null));
  }
}
