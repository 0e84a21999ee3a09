package io.hooklens.run.node;

import io.grpc.Server;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * A container's application for the grpc probe tests: grpc-java's standard health service on the given port and
 * address of the pod, the server as a whole ({@code ""}) SERVING and the service {@code payments} NOT_SERVING.
 */
public final class TinyGrpcServer {
  private TinyGrpcServer() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    HealthStatusManager health = new HealthStatusManager();
    health.setStatus("", ServingStatus.SERVING);
    health.setStatus("payments", ServingStatus.NOT_SERVING);
    Server server = NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getByName(args[1]),
        Integer.parseInt(args[0]))).addService(health.getHealthService()).build().start();
    server.awaitTermination();
  }
}
