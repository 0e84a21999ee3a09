package io.hooklens.run.cluster;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.vertx.HttpServerRequestHandler;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.KeyCertOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Logger;

/**
 * An in-process Kubernetes API endpoint on loopback: fabric8's CRUD mock behind {@link ClusterDispatcher},
 * served over TLS with the run's own {@link ApiCredentials}. It stores and watches objects; it runs nothing
 * (that is the node agent's job) and validates nothing.
 *
 * <p>Whatever the API accepts, the node agent runs as this process's user, so only holders of the run's
 * token get past the door: every other request gets 401 before anything is dispatched, discovery included.
 */
public final class EmbeddedCluster implements LocalCluster {
  public static final String NAMESPACE = "default";
  private static final String LOOPBACK = "127.0.0.1";
  private static final String UNAUTHORIZED = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
      + "\"message\":\"Unauthorized\",\"reason\":\"Unauthorized\",\"code\":401}";
  private static final long WAIT_SECONDS = 10;

  private final Vertx server;
  private final ApiCredentials credentials;
  private final KubernetesClient client;
  private final String url;

  private EmbeddedCluster(Vertx server, ApiCredentials credentials, String url) {
    this.server = server;
    this.credentials = credentials;
    this.url = url;
    this.client = credentials.client(url, NAMESPACE);
  }

  /**
   * Starts the endpoint on a free loopback port. fabric8's mock web server serves TLS only with a certificate
   * it makes itself and writes to temporary files, so the mock's dispatcher is served here, through the
   * mock's own Vert.x request handler, by a server that holds the run's certificate in memory.
   */
  public static EmbeddedCluster start() {
    ApiCredentials credentials = ApiCredentials.generate();
    int port = freePort();
    String address = LOOPBACK + ":" + port;
    Dispatcher dispatcher = new ClusterDispatcher(Discovery.documents(address));
    Vertx vertx = Vertx.vertx();
    HttpServerRequestHandler mock = new HttpServerRequestHandler(vertx) {
      @Override
      protected MockResponse onHttpRequest(RecordedRequest request) {
        return dispatcher.dispatch(request);
      }
    };
    HttpServerOptions options = new HttpServerOptions().setHost(LOOPBACK).setPort(port).setSsl(true)
        .setKeyCertOptions(KeyCertOptions.wrap(credentials.serverKeys())).setSslEngineOptions(new JdkServerTls())
        .setHandle100ContinueAutomatically(true);
    try {
      await(vertx.createHttpServer(options).requestHandler(request -> {
        if (credentials.admits(request.getHeader(HttpHeaders.AUTHORIZATION))) {
          mock.handle(request);
        } else {
          request.response().setStatusCode(401).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
              .end(UNAUTHORIZED);
        }
      }).listen());
    } catch (IOException e) {
      vertx.close();
      throw new UncheckedIOException(e);
    }
    return new EmbeddedCluster(vertx, credentials, "https://" + address);
  }

  private static <T> T await(Future<T> future) throws IOException {
    try {
      return future.toCompletionStage().toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new IOException(e.getCause());
    } catch (TimeoutException e) {
      throw new IOException("the embedded API server took more than " + WAIT_SECONDS + " s", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  // The discovery documents name the address before the server listens. Another process taking the port
  // first fails the start, and it could not pass for this server: the client trusts the run's CA alone.
  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public KubernetesClient client() {
    return client;
  }

  public String url() {
    return url;
  }

  @Override
  public String namespace() {
    return NAMESPACE;
  }

  @Override
  public Path writeKubeconfig(Path file) throws IOException {
    return credentials.writeKubeconfig(file, url, NAMESPACE);
  }

  @Override
  public void close() {
    client.close();
    try {
      await(server.close());
    } catch (IOException e) {
      // A run's results are read by then, and the port and threads go with the process.
      Logger.getLogger(EmbeddedCluster.class.getName()).warning("the embedded API server did not close: " + e);
    }
  }
}
