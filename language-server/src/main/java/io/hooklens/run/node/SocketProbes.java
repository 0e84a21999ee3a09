package io.hooklens.run.node;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GRPCAction;
import io.fabric8.kubernetes.api.model.TCPSocketAction;
import io.hooklens.run.kube.BoundedOutput;
import io.hooklens.run.node.HandlerRunner.Result;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/**
 * The kubelet's tcpSocket and grpc probes ({@code pkg/probe/tcp}, {@code pkg/probe/grpc}), dialled from inside the
 * pod's network namespace to the pod's IP as the kubelet dials {@code status.podIP}: a server bound to 127.0.0.1
 * only is not reached. Failures carry the kubelet's words.
 */
final class SocketProbes {
  private final Sandbox sandbox;

  SocketProbes(Sandbox sandbox) {
    this.sandbox = sandbox;
  }

  /**
   * Opens a connection and closes it ({@code DoTCPProbe}).
   *
   * @param over completes when the probe's {@code timeoutSeconds} have passed
   * @param stopped completes when the probe is over or the container gone; it ends the dial
   */
  Result tcp(TCPSocketAction action, Container container, Sandbox.PodNetwork network, CompletableFuture<?> over,
      CompletableFuture<?> stopped) throws IOException, InterruptedException {
    Integer port = HandlerRunner.port(action.getPort(), container);
    if (port == null) {
      return Result.failure("tcpSocket port " + action.getPort().getStrVal() + " is not a named port of container "
          + container.getName());
    }
    if (action.getHost() != null && !action.getHost().isEmpty()) {
      return Result.failure(HandlerRunner.fromNode("tcpSocket", action.getHost()));
    }
    String address = network.ip() + ":" + port;
    Process process = sandbox.startDial(network, network.ip(), port, false);
    HandlerRunner.Output output = HandlerRunner.Output.drain(process.getInputStream());
    HandlerRunner.await(process, stopped, false);
    if (process.exitValue() == 0) {
      return Result.ok(BoundedOutput.Tail.EMPTY);
    }
    // Go's net.Dial error, as the kubelet quotes it.
    return Result.failure("dial tcp " + address + ": "
        + (over.isDone() ? "i/o timeout" : "connect: " + errno(output.tail().text())));
  }

  /**
   * One {@code grpc.health.v1.Health/Check} call over a fresh connection, as the kubelet's grpc prober makes it.
   *
   * @param timeoutSeconds the probe's timeout, for the call's deadline and the messages
   */
  Result grpc(GRPCAction action, Sandbox.PodNetwork network, long timeoutSeconds, CompletableFuture<?> over,
      CompletableFuture<?> stopped) throws IOException {
    int port = action.getPort() == null ? 0 : action.getPort();
    String service = action.getService() == null ? "" : action.getService();
    String address = network.ip() + ":" + port;
    String connectFailed = "timeout: failed to connect service \"" + address + "\" within " + timeoutSeconds
        + "s: context deadline exceeded";
    Process process = sandbox.startDial(network, network.ip(), port, true);
    stopped.whenComplete((v, e) -> process.destroyForcibly());
    try (InputStream in = process.getInputStream(); OutputStream out = process.getOutputStream()) {
      if (!"connected".equals(line(in))) {
        // With WithBlock, grpc-go keeps dialling until the deadline and then says only that.
        return Result.failure(connectFailed);
      }
      out.write(GrpcHealth.request(address, service, timeoutSeconds));
      out.close();
      GrpcHealth.Answer answer = GrpcHealth.read(in);
      return answer == null ? Result.failure(connectFailed) : verdict(answer, timeoutSeconds);
    } catch (IOException e) {
      return Result.failure(over.isDone() ? "timeout: health rpc did not complete within " + timeoutSeconds + "s"
          : "error: health rpc probe failed: rpc error: code = Unavailable desc = " + e.getMessage());
    } finally {
      process.destroyForcibly();
    }
  }

  // The kubelet's reading of the call's end (pkg/probe/grpc/grpc.go).
  private static Result verdict(GrpcHealth.Answer answer, long timeoutSeconds) {
    return switch (answer.code()) {
      case GrpcHealth.OK -> "SERVING".equals(answer.serving()) ? Result.ok(BoundedOutput.Tail.EMPTY)
          : Result.failure("service unhealthy (responded with \"" + answer.serving() + "\")");
      case GrpcHealth.UNIMPLEMENTED -> Result.failure("error: this server does not implement the grpc health "
          + "protocol (grpc.health.v1.Health): " + answer.message());
      case GrpcHealth.DEADLINE_EXCEEDED -> Result.failure("timeout: health rpc did not complete within "
          + timeoutSeconds + "s");
      default -> Result.failure("error: health rpc probe failed: rpc error: code = "
          + GrpcHealth.codeName(answer.code()) + " desc = " + answer.message());
    };
  }

  /** The first line the dial printed, up to a bounded length. */
  private static String line(InputStream in) throws IOException {
    StringBuilder line = new StringBuilder();
    for (int c = in.read(); c >= 0 && c != '\n' && line.length() < 256; c = in.read()) {
      line.append((char) c);
    }
    return line.toString();
  }

  /** bash's {@code connect: Connection refused} in Go's words: {@code connection refused}. */
  private static String errno(String said) {
    for (String line : said.split("\n")) {
      int at = line.indexOf("connect: ");
      if (at >= 0) {
        String reason = line.substring(at + "connect: ".length()).strip();
        return reason.isEmpty() ? reason : reason.substring(0, 1).toLowerCase(Locale.ROOT) + reason.substring(1);
      }
    }
    return said.strip();
  }
}
