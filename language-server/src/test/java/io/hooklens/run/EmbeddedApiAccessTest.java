package io.hooklens.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.Config;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.hooklens.run.cluster.EmbeddedCluster;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who gets into an embedded run's API. Whatever it accepts, the node runs as the runner's user, so only
 * the holder of the kubeconfig the run prints may get in: TLS with the run's own CA, the run's token, and a
 * kubeconfig no other local user can read. Everything here is learnt from that kubeconfig, as a user would.
 */
@Tag("slow")
class EmbeddedApiAccessTest {
  private static final String PODS = "/api/v1/namespaces/default/pods";
  private static final String UNAUTHORIZED = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
      + "\"message\":\"Unauthorized\",\"reason\":\"Unauthorized\",\"code\":401}";
  private static final String NOBODY = "65534";

  private static Runner runner;
  private static Path kubeconfig;
  private static Api api;

  /** What the kubeconfig names: the server, its CA and the token; and an HTTPS client trusting that CA only. */
  private record Api(URI server, X509Certificate ca, String token, HttpClient http) {
    static Api of(Path kubeconfig) throws Exception {
      Config config = Serialization.unmarshal(Files.readString(kubeconfig), Config.class);
      X509Certificate ca = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(
          new ByteArrayInputStream(Base64.getDecoder().decode(
              config.getClusters().get(0).getCluster().getCertificateAuthorityData())));
      KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
      trusted.load(null, null);
      trusted.setCertificateEntry("ca", ca);
      TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(trusted);
      SSLContext tls = SSLContext.getInstance("TLS");
      tls.init(null, trust.getTrustManagers(), null);
      return new Api(URI.create(config.getClusters().get(0).getCluster().getServer()), ca,
          config.getUsers().get(0).getUser().getToken(), HttpClient.newBuilder().sslContext(tls).build());
    }

    HttpResponse<String> get(String path, String authorization) throws IOException, InterruptedException {
      return send(HttpRequest.newBuilder(server.resolve(path)).GET(), authorization);
    }

    HttpResponse<String> send(HttpRequest.Builder request, String authorization)
        throws IOException, InterruptedException {
      if (authorization != null) {
        request.header("Authorization", authorization);
      }
      return http.send(request.timeout(Duration.ofSeconds(10)).build(),
          HttpResponse.BodyHandlers.ofString());
    }
  }

  @BeforeAll
  static void runAndHold() throws Exception {
    // As with --hold: the run is over, its cluster and kubeconfig stay until the runner is closed.
    runner = Runner.embedded(Images.NONE, 20, (s, pod, what) -> { });
    runner.run(RunnerTest.plan(RunnerTest.STOPS_ON_TERM.formatted(2, "true")), List.of());
    kubeconfig = runner.kubeconfig().orElseThrow();
    api = Api.of(kubeconfig);
  }

  @AfterAll
  static void close() {
    runner.close();
  }

  @Test
  void theKubeconfigIsPrivateAndHoldsTheCaAndTheToken() throws Exception {
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(kubeconfig)));
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(kubeconfig.getParent())));
    String text = Files.readString(kubeconfig);
    assertTrue(text.contains("certificate-authority-data: "), text);
    assertTrue(text.contains("token: " + api.token()), text);
    assertTrue(api.token().matches("[A-Za-z0-9_-]{43}"), "256 bits, base64url: " + api.token());
    assertEquals("https", api.server().getScheme());
    assertEquals("127.0.0.1", api.server().getHost());
    assertTrue(api.ca().getBasicConstraints() >= 0, "a CA certificate");
  }

  @Test
  void anotherLocalUserCannotReadTheKubeconfig() throws Exception {
    assumeRoot();
    assertEquals(0, asNobody("true").exit(), "setpriv runs commands as nobody here");
    Result cat = asNobody("cat", kubeconfig.toString());
    assertNotEquals(0, cat.exit());
    assertTrue(cat.output().contains("Permission denied"), cat.output());
    assertFalse(cat.output().contains(api.token()));
  }

  @Test
  void anotherLocalUsersRequestIsRefused() throws Exception {
    assumeRoot();
    assumeTrue(onPath("curl"), "curl is not installed: no request is made as another user");
    Result curl = asNobody("curl", "-sk", "-o", "/dev/null", "-w", "%{http_code}", api.server().resolve(PODS).toString());
    assertEquals("401", curl.output());
  }

  @Test
  void withoutTheTokenEveryRequestIsUnauthorizedAndNothingIsCreated() throws Exception {
    for (String path : List.of(PODS, "/api", "/apis", "/version", "/api/v1")) {
      HttpResponse<String> response = api.get(path, null);
      assertEquals(401, response.statusCode(), path);
      assertEquals(UNAUTHORIZED, response.body(), path);
      assertEquals("application/json", response.headers().firstValue("Content-Type").orElse(""), path);
    }
    String pod = """
        {"apiVersion":"v1","kind":"Pod","metadata":{"name":"intruder"},
         "spec":{"containers":[{"name":"c","image":"x","command":["id"]}]}}""";
    HttpResponse<String> created = api.send(HttpRequest.newBuilder(api.server().resolve(PODS))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(pod)), null);
    assertEquals(401, created.statusCode());
    assertEquals(404, api.get(PODS + "/intruder", "Bearer " + api.token()).statusCode(), "no pod was created");
  }

  @Test
  void aWrongTokenIsUnauthorized() throws Exception {
    String token = api.token();
    for (String authorization : List.of("Bearer " + randomToken(), "Bearer " + token.substring(1),
        "Bearer " + token + "x", "Bearer ", token, "Basic " + token, "Bearer hooklens")) {
      HttpResponse<String> response = api.get(PODS, authorization);
      assertEquals(401, response.statusCode(), authorization);
      assertEquals(UNAUTHORIZED, response.body(), authorization);
    }
  }

  @Test
  void theTokenIsAdmittedOverTlsWithACertificateForLoopbackThatTheRunsCaSigned() throws Exception {
    HttpResponse<String> response = api.get(PODS, "Bearer " + api.token());
    assertEquals(200, response.statusCode(), response.body());
    assertTrue(response.body().contains("\"items\""), response.body());
    X509Certificate served = (X509Certificate) response.sslSession().orElseThrow().getPeerCertificates()[0];
    served.verify(api.ca().getPublicKey());
    assertTrue(served.getSubjectAlternativeNames().containsAll(List.of(List.of(7, "127.0.0.1"),
        List.of(2, "localhost"))), served.getSubjectAlternativeNames().toString());
    assertEquals(200, api.get("/api", "Bearer " + api.token()).statusCode(), "discovery too");
  }

  @Test
  void plainHttpOnThePortGetsNoHttpAnswerEvenWithTheToken() throws Exception {
    String answer;
    try (Socket socket = new Socket(api.server().getHost(), api.server().getPort())) {
      socket.setSoTimeout(10_000);
      socket.getOutputStream().write(("GET " + PODS + " HTTP/1.1\r\nHost: " + api.server().getAuthority()
          + "\r\nAuthorization: Bearer " + api.token() + "\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      answer = readUntilClosed(socket.getInputStream());
    }
    assertFalse(answer.startsWith("HTTP/"), answer);
    assertFalse(answer.contains("items"), answer);
  }

  @Test
  void eachRunHasItsOwnCaAndToken(@TempDir Path dir) throws Exception {
    try (EmbeddedCluster other = EmbeddedCluster.start()) {
      Api second = Api.of(other.writeKubeconfig(dir.resolve("kubeconfig")));
      assertNotEquals(api.token(), second.token());
      assertNotEquals(api.ca(), second.ca());
      assertEquals(401, second.get(PODS, "Bearer " + api.token()).statusCode(), "another run's token");
      assertThrows(SSLHandshakeException.class, () -> api.http().send(HttpRequest.newBuilder(second.server()
          .resolve(PODS)).build(), HttpResponse.BodyHandlers.ofString()), "another run's CA");
      assertEquals(200, second.get(PODS, "Bearer " + second.token()).statusCode());
    }
  }

  private static String randomToken() {
    byte[] bytes = new byte[32];
    new SecureRandom().nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  // What came back before the server closed the connection, or reset it.
  private static String readUntilClosed(InputStream in) throws IOException {
    ByteArrayOutputStream read = new ByteArrayOutputStream();
    byte[] buffer = new byte[4096];
    try {
      for (int n; (n = in.read(buffer)) >= 0; ) {
        read.write(buffer, 0, n);
      }
    } catch (SocketException reset) {
      // A reset answers nothing either.
    }
    return read.toString(StandardCharsets.ISO_8859_1);
  }

  private record Result(int exit, String output) {}

  private static void assumeRoot() throws IOException {
    assumeTrue(Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid")),
        "only root can run a command as another user (setpriv)");
  }

  private static Result asNobody(String... command) throws IOException, InterruptedException {
    List<String> full = new ArrayList<>(List.of("setpriv", "--reuid=" + NOBODY, "--regid=" + NOBODY,
        "--clear-groups"));
    full.addAll(List.of(command));
    Process process = new ProcessBuilder(full).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(30, TimeUnit.SECONDS), String.join(" ", full));
    return new Result(process.exitValue(), output);
  }

  private static boolean onPath(String command) {
    return List.of(System.getenv().getOrDefault("PATH", "").split(":")).stream()
        .anyMatch(dir -> !dir.isEmpty() && Files.isExecutable(Path.of(dir, command)));
  }
}
