package io.hooklens.run.cluster;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.vertx.TlsWarmup;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * An in-process Kubernetes API endpoint on loopback: fabric8's mock server in CRUD mode behind
 * {@link ClusterDispatcher}. It stores and watches objects; it runs nothing (that is the node agent's
 * job) and validates nothing.
 */
public final class EmbeddedCluster implements AutoCloseable {
  public static final String NAMESPACE = "default";
  private static final String LOOPBACK = "127.0.0.1";
  // The mock logs every request at INFO; kept in a field so the level is not lost with the logger.
  private static final Logger MOCK_LOG = quiet(Logger.getLogger("io.fabric8.mockwebserver.MockWebServer"));

  private final KubernetesMockServer server;
  private final KubernetesClient client;
  private final String url;

  private EmbeddedCluster(KubernetesMockServer server, String url) {
    this.server = server;
    this.url = url;
    // Plain HTTP on loopback, where no certificate is ever presented: trusting certificates only spares the
    // client loading the JDK's trust store, and its TLS warm-up is wasted; together a third of its start.
    Config config = new ConfigBuilder(Config.empty()).withMasterUrl(url).withNamespace(NAMESPACE)
        .withHttp2Disable(true).withRequestTimeout(10_000).withTrustCerts(true).build();
    VertxHttpClientFactory http = new VertxHttpClientFactory();
    http.setTlsWarmup(TlsWarmup.OFF);
    this.client = new KubernetesClientBuilder().withConfig(config).withHttpClientFactory(http).build();
  }

  private static Logger quiet(Logger logger) {
    logger.setLevel(Level.WARNING);
    return logger;
  }

  /** Starts the endpoint on a free loopback port. */
  public static EmbeddedCluster start() {
    int port = freePort();
    String address = LOOPBACK + ":" + port;
    KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
        new ClusterDispatcher(Discovery.documents(address)), false);
    try {
      server.init(InetAddress.getByName(LOOPBACK), port);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new EmbeddedCluster(server, "http://" + address);
  }

  // The mock asks for a port up front; the race with another process taking it is harmless on loopback.
  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public KubernetesClient client() {
    return client;
  }

  public String url() {
    return url;
  }

  /** Writes a kubeconfig for kubectl and other clients; its only context is this cluster. */
  public Path writeKubeconfig(Path file) throws IOException {
    String text = """
        apiVersion: v1
        kind: Config
        clusters:
        - name: hooklens
          cluster:
            server: %s
        users:
        - name: hooklens
          user:
            token: hooklens
        contexts:
        - name: hooklens
          context:
            cluster: hooklens
            user: hooklens
            namespace: %s
        current-context: hooklens
        """.formatted(url, NAMESPACE);
    Files.writeString(file, text);
    return file;
  }

  @Override
  public void close() {
    client.close();
    try {
      server.destroy();
    } catch (IllegalStateException e) {
      // The mock gives its HTTP server ten seconds to close; a run's results are read by then, and the port and
      // threads go with the process.
      Logger.getLogger(EmbeddedCluster.class.getName()).warning("the embedded API server did not close: " + e);
    }
  }
}
