package io.hooklens.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.hooklens.rules.BuiltInRules;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A Hooklens server whose standard input a test writes raw bytes to, as a client with bugs of its own would:
 * headers that lie, no params, noise. What the server writes back is read as a well-behaved client reads it and
 * kept as JSON, oldest first.
 */
final class RawSession implements AutoCloseable {
  private static final int PIPE_BYTES = 1 << 20;

  private final Pipe toServer = new Pipe(PIPE_BYTES);
  private final Pipe toClient = new Pipe(PIPE_BYTES);
  private final CompletableFuture<Integer> run = new CompletableFuture<>();
  private final List<JsonObject> received = new ArrayList<>();

  RawSession() throws Exception {
    HooklensLanguageServer server = new HooklensLanguageServer(BuiltInRules.registry(), "test");
    Thread serving = new Thread(() -> {
      try {
        run.complete(LanguageServerRunner.serve(server, toServer.in, toClient.out));
      } catch (RuntimeException | Error e) {
        run.completeExceptionally(e);
      }
    }, "test-raw-server");
    serving.setDaemon(true);
    serving.start();
    Thread reading = new Thread(this::readAnswers, "test-raw-client");
    reading.setDaemon(true);
    reading.start();
    send(frame(request(0, "initialize", "{\"capabilities\": {}, \"initializationOptions\": {\"hooklens\":"
        + " {\"debounceMs\": 0}}}")));
    awaitResponse(0, RecordingClient.TIMEOUT_MS);
    send(frame("{\"jsonrpc\": \"2.0\", \"method\": \"initialized\", \"params\": {}}"));
  }

  /** A request's JSON text. */
  static String request(int id, String method, String params) {
    return "{\"jsonrpc\": \"2.0\", \"id\": " + id + ", \"method\": \"" + method + "\", \"params\": " + params + "}";
  }

  /** A notification's JSON text. */
  static String notification(String method, String params) {
    return "{\"jsonrpc\": \"2.0\", \"method\": \"" + method + "\", \"params\": " + params + "}";
  }

  /** A message framed as the protocol says. */
  static byte[] frame(String json) {
    return frame(json, 0);
  }

  /** A message whose Content-Length is off by {@code wrongBy} bytes. */
  static byte[] frame(String json, int wrongBy) {
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    return concat(("Content-Length: " + (body.length + wrongBy) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII),
        body);
  }

  static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  void send(byte[] bytes) throws IOException {
    toServer.out.write(bytes);
  }

  void send(String text) throws IOException {
    send(text.getBytes(StandardCharsets.UTF_8));
  }

  /** Waits for the answer to a request: a message with its id and a result or an error. */
  JsonObject awaitResponse(int id, long timeoutMs) {
    return await(m -> m.has("id") && !m.get("id").isJsonNull() && m.get("id").getAsInt() == id
        && (m.has("result") || m.has("error")), timeoutMs, "the answer to request " + id);
  }

  /** Waits for an error answer with id null. */
  JsonObject awaitErrorWithoutId(long timeoutMs) {
    return await(m -> m.has("id") && m.get("id").isJsonNull() && m.has("error"), timeoutMs, "an error with id null");
  }

  /** Waits for a {@code window/logMessage} whose text satisfies a condition. */
  JsonObject awaitLog(Predicate<String> text) {
    return await(m -> "window/logMessage".equals(m.has("method") ? m.get("method").getAsString() : null)
        && text.test(m.getAsJsonObject("params").get("message").getAsString()), RecordingClient.TIMEOUT_MS,
        "a log message");
  }

  synchronized List<JsonObject> received() {
    return List.copyOf(received);
  }

  private JsonObject await(Predicate<JsonObject> condition, long timeoutMs, String what) {
    long deadline = System.nanoTime() + timeoutMs * 1_000_000;
    synchronized (this) {
      while (true) {
        for (JsonObject m : received) {
          if (condition.test(m)) {
            return m;
          }
        }
        long left = (deadline - System.nanoTime()) / 1_000_000;
        if (left <= 0) {
          return fail("timed out after " + timeoutMs + " ms waiting for " + what + "; received " + received);
        }
        try {
          wait(left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return fail("interrupted");
        }
      }
    }
  }

  /** Reads the server's messages, framed by their Content-Length as a client does. */
  private void readAnswers() {
    InputStream in = toClient.in;
    try {
      while (true) {
        int length = -1;
        String line;
        while (!(line = line(in)).isEmpty()) {
          if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
            length = Integer.parseInt(line.substring("content-length:".length()).trim());
          }
        }
        byte[] body = in.readNBytes(length);
        if (body.length < length) {
          return;
        }
        JsonObject message = JsonParser.parseString(new String(body, StandardCharsets.UTF_8)).getAsJsonObject();
        synchronized (this) {
          received.add(message);
          notifyAll();
        }
      }
    } catch (IOException | RuntimeException e) {
      // The server closed its output.
    }
  }

  private static String line(InputStream in) throws IOException {
    StringBuilder s = new StringBuilder();
    int c;
    while ((c = in.read()) != '\n') {
      if (c < 0) {
        throw new IOException("end of the server's output");
      }
      if (c != '\r') {
        s.append((char) c);
      }
    }
    return s.toString();
  }

  /** Shuts the server down as a client does, and checks that it ends with code 0. */
  @Override
  public void close() throws Exception {
    send(frame(request(999_999, "shutdown", "null")));
    awaitResponse(999_999, RecordingClient.TIMEOUT_MS);
    send(frame(notification("exit", "null")));
    assertEquals(0, run.get(RecordingClient.TIMEOUT_MS, TimeUnit.MILLISECONDS));
  }
}
