package io.hooklens.run.node;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A container's application for the httpGet hook tests: serves on the given address of the pod, writes
 * {@code /tmp/listening} once bound; {@code GET /shutdown} starts draining. On SIGTERM it exits with 42
 * when it was draining, else with 1, so the exit code tells whether the hook's request reached it first.
 */
public final class TinyHttpServer {
  private static volatile boolean draining;

  private TinyHttpServer() {}

  public static void main(String[] args) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getByName(args[1]),
        Integer.parseInt(args[0])), 0);
    server.createContext("/shutdown", exchange -> {
      draining = true;
      byte[] body = ("draining, asked by " + exchange.getRequestHeaders().getFirst("User-Agent"))
          .getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    Runtime.getRuntime().addShutdownHook(new Thread(() -> Runtime.getRuntime().halt(draining ? 42 : 1)));
    server.start();
    Files.writeString(Path.of("/tmp/listening"), "yes");
  }
}
