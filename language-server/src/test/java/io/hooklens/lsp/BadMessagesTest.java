package io.hooklens.lsp;

import static io.hooklens.lsp.RawSession.concat;
import static io.hooklens.lsp.RawSession.frame;
import static io.hooklens.lsp.RawSession.notification;
import static io.hooklens.lsp.RawSession.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a client with bugs of its own gets, over the server's real standard input: requests without their params
 * are answered with an error that says what is missing and nothing of Java; notifications without them are
 * logged and dropped; a frame whose Content-Length is wrong, missing or not a number costs that message alone,
 * and the next message is answered at once.
 */
class BadMessagesTest {
  /**
   * Far below the 15 to 30 s lsp4j's reader took to line up again (or never, when the client's messages all had
   * one length or it sent no more); the answers take 0.1 to 0.3 s, and the bound leaves room for a busy machine.
   */
  private static final long PROMPTLY_MS = 5_000;

  private static final String POD = "file:///work/pod.yaml";
  private static final String AT_START = "{\"textDocument\": {\"uri\": \"" + POD + "\"}, \"position\": {\"line\": 0,"
      + " \"character\": 0}}";

  private RawSession session;

  @BeforeEach
  void start() throws Exception {
    session = new RawSession();
    session.send(frame(notification("textDocument/didOpen", "{\"textDocument\": {\"uri\": \"" + POD + "\","
        + " \"languageId\": \"yaml\", \"version\": 1, \"text\": " + quote(DiagnosticsTest.POD) + "}}")));
    // Warmed up, so that the times measured are the reader's, not the first request's.
    session.send(frame(symbols(1)));
    assertSymbolsAnswered(1, RecordingClient.TIMEOUT_MS);
  }

  @AfterEach
  void stop() throws Exception {
    session.close();
  }

  private static String quote(String text) {
    return new com.google.gson.Gson().toJson(text);
  }

  private static String symbols(int id) {
    return request(id, "textDocument/documentSymbol", "{\"textDocument\": {\"uri\": \"" + POD + "\"}}");
  }

  /** The error of an answer, checked to hold nothing a client should not see. */
  private static JsonObject error(JsonObject answer, int code) {
    assertTrue(answer.has("error"), answer::toString);
    JsonObject error = answer.getAsJsonObject("error");
    assertEquals(code, error.get("code").getAsInt(), answer::toString);
    assertFalse(error.has("data") && !error.get("data").isJsonNull(), answer::toString);
    String message = error.get("message").getAsString();
    for (String java : List.of("java.", "Exception", "Error:", "\tat ", "lsp4j", "gson")) {
      assertFalse(message.contains(java), () -> "'" + java + "' in " + message);
    }
    return error;
  }

  private void assertSymbolsAnswered(int id, long withinMs) {
    JsonObject answer = session.awaitResponse(id, withinMs);
    assertTrue(answer.has("result") && answer.getAsJsonArray("result").size() == 1, answer::toString);
  }

  @Test
  void aRequestWithoutParamsIsAnsweredWithInvalidParamsNamingWhatIsMissing() throws Exception {
    List<String> methods = List.of("textDocument/completion", "textDocument/hover", "textDocument/codeAction",
        "textDocument/documentSymbol", "textDocument/inlayHint", "textDocument/codeLens", "workspace/executeCommand");
    int id = 10;
    for (String method : methods) {
      session.send(frame(request(id, method, "null")));
      String message = error(session.awaitResponse(id, RecordingClient.TIMEOUT_MS), -32602).get("message")
          .getAsString();
      assertEquals("Invalid params for " + method + ": params is missing", message);
      id++;
    }
    // Params without what the protocol requires in them, at any depth.
    session.send(frame(request(20, "textDocument/completion", "{}")));
    assertEquals("Invalid params for textDocument/completion: params.textDocument is missing",
        error(session.awaitResponse(20, RecordingClient.TIMEOUT_MS), -32602).get("message").getAsString());
    session.send(frame(request(21, "textDocument/hover", "{\"textDocument\": {\"uri\": \"" + POD + "\"}}")));
    assertEquals("Invalid params for textDocument/hover: params.position is missing",
        error(session.awaitResponse(21, RecordingClient.TIMEOUT_MS), -32602).get("message").getAsString());
    session.send(frame(request(22, "textDocument/codeAction", "{\"textDocument\": {\"uri\": \"" + POD + "\"},"
        + " \"range\": {\"start\": {\"line\": 0, \"character\": 0}, \"end\": {\"line\": 0, \"character\": 0}},"
        + " \"context\": {\"diagnostics\": [{\"range\": {\"start\": {\"line\": 0, \"character\": 0},"
        + " \"end\": {\"line\": 0, \"character\": 0}}}]}}")));
    assertEquals("Invalid params for textDocument/codeAction: params.context.diagnostics[0].message is missing",
        error(session.awaitResponse(22, RecordingClient.TIMEOUT_MS), -32602).get("message").getAsString());
    // Params of the wrong type.
    session.send(frame(request(23, "textDocument/completion", "5")));
    assertTrue(error(session.awaitResponse(23, RecordingClient.TIMEOUT_MS), -32602).get("message").getAsString()
        .startsWith("Invalid params for textDocument/completion: "));
    // The server is still there.
    session.send(frame(symbols(24)));
    assertSymbolsAnswered(24, RecordingClient.TIMEOUT_MS);
  }

  @Test
  void aNotificationWithoutParamsIsLoggedAndIgnored() throws Exception {
    for (String method : List.of("textDocument/didOpen", "textDocument/didChange", "textDocument/didClose",
        "textDocument/didSave", "workspace/didChangeWatchedFiles")) {
      session.send(frame(notification(method, "null")));
      session.awaitLog(m -> m.equals("ignored a " + method + " notification: params is missing"));
    }
    session.send(frame(notification("textDocument/didChange", "{\"textDocument\": {\"uri\": \"" + POD + "\","
        + " \"version\": 2}, \"contentChanges\": [{\"range\": null}]}")));
    session.awaitLog(m -> m.equals("ignored a textDocument/didChange notification:"
        + " params.contentChanges[0].text is missing"));
    // Nothing of it reached the document: it is still open, as it was.
    session.send(frame(symbols(30)));
    assertSymbolsAnswered(30, RecordingClient.TIMEOUT_MS);
    assertTrue(session.received().stream().noneMatch(m -> m.has("id") && m.has("error")), () -> "no answer to a"
        + " notification: " + session.received());
  }

  /** Sends bytes, then a valid request, and checks how soon it is answered. */
  private long answeredAfter(byte[] bad, int id) throws Exception {
    long start = System.nanoTime();
    session.send(concat(bad, frame(symbols(id))));
    assertSymbolsAnswered(id, PROMPTLY_MS);
    long ms = (System.nanoTime() - start) / 1_000_000;
    System.out.println("answered " + ms + " ms after a bad frame");
    return ms;
  }

  @Test
  void aContentLengthTooLargeCostsThatMessageOnly() throws Exception {
    answeredAfter(frame(request(2, "textDocument/hover", AT_START), 10), 3);
    String message = error(session.awaitResponse(2, PROMPTLY_MS), -32700).get("message").getAsString();
    assertTrue(message.contains("Content-Length is") && message.contains("ends after"), message);
    // And every message after it as usual.
    for (int id = 4; id < 7; id++) {
      session.send(frame(symbols(id)));
      assertSymbolsAnswered(id, PROMPTLY_MS);
    }
  }

  @Test
  void aContentLengthTooSmallCostsThatMessageOnly() throws Exception {
    answeredAfter(frame(request(2, "textDocument/hover", AT_START), -10), 3);
    String message = error(session.awaitResponse(2, PROMPTLY_MS), -32700).get("message").getAsString();
    assertTrue(message.contains("Content-Length is") && message.contains("takes"), message);
    session.send(frame(symbols(4)));
    assertSymbolsAnswered(4, PROMPTLY_MS);
  }

  @Test
  void aContentLengthThatIsNotANumberOrMissingCostsThatMessageOnly() throws Exception {
    byte[] body = request(2, "textDocument/hover", AT_START).getBytes(StandardCharsets.UTF_8);
    answeredAfter(concat("Content-Length: abc\r\n\r\n".getBytes(StandardCharsets.US_ASCII), body), 3);
    assertTrue(error(session.awaitResponse(2, PROMPTLY_MS), -32700).get("message").getAsString()
        .contains("Content-Length 'abc' is not a byte count"));
    byte[] other = request(4, "textDocument/hover", AT_START).getBytes(StandardCharsets.UTF_8);
    answeredAfter(concat("Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n"
        .getBytes(StandardCharsets.US_ASCII), other), 5);
    assertTrue(error(session.awaitResponse(4, PROMPTLY_MS), -32700).get("message").getAsString()
        .contains("no Content-Length header"));
  }

  @Test
  void aRequestWhoseLengthIsTooLargeIsAnsweredEvenWhenNothingFollowsIt() throws Exception {
    long start = System.nanoTime();
    session.send(frame(request(2, "textDocument/hover", AT_START), 10));
    error(session.awaitResponse(2, PROMPTLY_MS), -32700);
    System.out.println("a lone frame too large answered in " + (System.nanoTime() - start) / 1_000_000 + " ms");
    session.send(frame(symbols(3)));
    assertSymbolsAnswered(3, PROMPTLY_MS);
  }

  @Test
  void aBodyCutShortInsideAStringCostsThatMessageOnly() throws Exception {
    // The header counts the bytes sent, but the client stopped writing inside a string.
    String cut = request(2, "textDocument/hover", AT_START);
    cut = cut.substring(0, cut.indexOf(POD) + 10);
    answeredAfter(frame(cut), 3);
    error(session.awaitResponse(2, PROMPTLY_MS), -32700);
  }

  @Test
  void noiseBetweenMessagesIsSkipped() throws Exception {
    answeredAfter("this is not a header\r\n}]} more noise Content-".getBytes(StandardCharsets.US_ASCII), 3);
    // A body that is not JSON, framed right, gets a parse error with id null.
    answeredAfter(frame("not json at all"), 4);
    error(session.awaitErrorWithoutId(PROMPTLY_MS), -32700);
  }

  @Test
  void aBodyPaddedWithBlanksWithinItsLengthIsAMessage() throws Exception {
    session.send(frame(symbols(3) + "\r\n"));
    assertSymbolsAnswered(3, PROMPTLY_MS);
    assertTrue(session.received().stream().noneMatch(m -> m.has("error")), () -> session.received().toString());
  }

  @Test
  void aLargeMessageWhoseTextLooksLikeHeadersAndBracesIsReadWhole() throws Exception {
    StringBuilder comment = new StringBuilder();
    for (int i = 0; i < 20_000; i++) {
      comment.append("# Content-Length: 5 {\"é\\\": [} ").append(i).append('\n');
    }
    String text = DiagnosticsTest.POD + comment;
    String uri = "file:///work/large.yaml";
    session.send(frame(notification("textDocument/didOpen", "{\"textDocument\": {\"uri\": \"" + uri + "\","
        + " \"languageId\": \"yaml\", \"version\": 1, \"text\": " + quote(text) + "}}")));
    session.send(frame(request(3, "textDocument/documentSymbol", "{\"textDocument\": {\"uri\": \"" + uri + "\"}}")));
    JsonObject answer = session.awaitResponse(3, RecordingClient.TIMEOUT_MS);
    assertEquals(1, answer.getAsJsonArray("result").size(), answer::toString);
    assertTrue(session.received().stream().noneMatch(m -> m.has("error")), () -> session.received().toString());
  }
}
