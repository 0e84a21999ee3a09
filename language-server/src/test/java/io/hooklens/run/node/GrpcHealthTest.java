package io.hooklens.run.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.grpc.Server;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The grpc probe's wire client against grpc-java's own server and health service. */
class GrpcHealthTest {
  private static HealthStatusManager health;
  private static Server server;
  private static Server bare;

  @BeforeAll
  static void start() throws IOException {
    health = new HealthStatusManager();
    health.setStatus("", ServingStatus.SERVING);
    health.setStatus("payments", ServingStatus.NOT_SERVING);
    InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    server = NettyServerBuilder.forAddress(loopback).addService(health.getHealthService()).build().start();
    bare = NettyServerBuilder.forAddress(loopback).build().start();
  }

  @AfterAll
  static void stop() throws InterruptedException {
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    bare.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }

  private static GrpcHealth.Answer check(Server to, String service) throws IOException {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), to.getPort())) {
      socket.setSoTimeout(10_000);
      socket.getOutputStream().write(GrpcHealth.request("127.0.0.1:" + to.getPort(), service, 5));
      return GrpcHealth.read(socket.getInputStream());
    }
  }

  @Test
  void aServingServerAnswersServing() throws IOException {
    assertEquals(new GrpcHealth.Answer(0, "", "SERVING"), check(server, ""));
  }

  @Test
  void aServiceThatDoesNotServeSaysSo() throws IOException {
    assertEquals(new GrpcHealth.Answer(0, "", "NOT_SERVING"), check(server, "payments"));
  }

  @Test
  void anUnknownServiceIsNotFoundWithTheServersMessage() throws IOException {
    GrpcHealth.Answer answer = check(server, "ledger");
    assertEquals("NotFound", GrpcHealth.codeName(answer.code()));
    assertEquals("unknown service ledger", answer.message());
  }

  @Test
  void aServerWithoutTheHealthServiceIsUnimplemented() throws IOException {
    GrpcHealth.Answer answer = check(bare, "");
    assertEquals(GrpcHealth.UNIMPLEMENTED, answer.code());
    assertEquals("Method not found: grpc.health.v1.Health/Check", answer.message());
  }

  @Test
  void aServerThatIsNotHttp2GivesNoAnswer() throws IOException {
    assertNull(GrpcHealth.read(new ByteArrayInputStream("HTTP/1.1 400 Bad Request\r\n\r\n"
        .getBytes(StandardCharsets.US_ASCII))));
  }

  @Test
  void huffmanCodedLiteralsDecodeAsRfc7541Shows() throws IOException {
    // RFC 7541 C.4.1: a literal with incremental indexing, name :authority (static 1), Huffman-coded value; then a
    // new name "custom-key" with the value "custom-value", both Huffman-coded (C.4.3).
    byte[] block = HexFormat.of().parseHex("418cf1e3c2e5f23a6ba0ab90f4ff"
        + "408825a849e95ba97d7f8925a849e95bb8e8b4bf");
    assertEquals("custom-value", Hpack.decode(block).get("custom-key"));
  }
}
