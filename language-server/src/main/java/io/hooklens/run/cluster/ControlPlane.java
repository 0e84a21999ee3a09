package io.hooklens.run.cluster;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.hooklens.run.process.Launcher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;

/**
 * A real Kubernetes control plane on loopback, as envtest starts it: etcd, kube-apiserver, and the
 * kube-controller-manager (the Job controller and the rest) and kube-scheduler when the folder has them. It has
 * its own CA, serving certificate, token and kubeconfig in a private temporary folder, with etcd's data; every
 * port is a free one on 127.0.0.1.
 *
 * <p>{@link #close()} may come from another thread (a shutdown hook on Ctrl-C) while {@link #start} waits: it
 * stops every process started so far, a start still under way starts nothing more, and the folder goes. A JVM
 * killed with SIGKILL runs no hook: where util-linux's setpriv is installed, the kernel kills the processes then
 * (their parent-death signal); only the folder stays.
 */
public final class ControlPlane implements LocalCluster {
  private static final String FOLDER_PREFIX = "hooklens-envtest-";
  // A run's folder: the prefix, the id of the JVM that made it, and createTempDirectory's random part.
  private static final Pattern STALE = Pattern.compile(Pattern.quote(FOLDER_PREFIX) + "(\\d{1,18})-\\d+");
  public static final String NAMESPACE = "default";
  private static final String LOOPBACK = "127.0.0.1";
  private static final long POLL_MS = 50;
  // kube-apiserver exits about 1.3 s after SIGTERM; this bounds a process that ignores it.
  private static final long STOP_SECONDS = 15;
  private static final int LOG_LINES = 4;

  private final KubeAssets assets;
  private final Map.Entry<String, String> marker;
  private final Duration startTimeout;
  private final ApiCredentials credentials = ApiCredentials.generate();
  private final List<Process> processes = new ArrayList<>();
  private Path dir;
  private String url;
  private KubernetesClient client;
  private boolean closed;

  /**
   * @param marker an environment variable every process started gets, so that a leftover can be found
   * @param startTimeout how long each part may take to become ready
   */
  public ControlPlane(KubeAssets assets, Map.Entry<String, String> marker, Duration startTimeout) {
    this.assets = assets;
    this.marker = marker;
    this.startTimeout = startTimeout;
  }

  /** The ports it listens on, for a report and for a check that they are closed afterwards. */
  public record Ports(int etcdClient, int etcdPeer, int apiServer) {}

  /**
   * Starts etcd, waits for its health, starts kube-apiserver, waits until it is ready, starts the controller
   * manager and the scheduler, and waits for the default namespace.
   *
   * @param progress a line per step
   * @throws InterruptedException when {@link #close()} stopped the start
   * @throws IllegalStateException when a part fails to start; its message ends with the end of that part's log
   */
  public Ports start(Consumer<String> progress) throws InterruptedException {
    Ports ports;
    Path etcdData;
    synchronized (this) {
      checkOpen();
      try {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        sweepStale(tmp);
        dir = Files.createTempDirectory(tmp, FOLDER_PREFIX + ProcessHandle.current().pid() + "-",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        ports = new Ports(freePort(), freePort(), freePort());
        url = "https://" + LOOPBACK + ":" + ports.apiServer();
        etcdData = Files.createDirectory(dir.resolve("etcd"));
        writeFiles();
      } catch (IOException | GeneralSecurityException e) {
        throw new IllegalStateException("cannot prepare the control plane's folder: " + e.getMessage(), e);
      }
    }
    long started = System.nanoTime();
    String etcdUrl = "http://" + LOOPBACK + ":" + ports.etcdClient();
    String peerUrl = "http://" + LOOPBACK + ":" + ports.etcdPeer();
    Process etcd = launch(KubeAssets.ETCD, "--data-dir", etcdData.toString(), "--listen-client-urls", etcdUrl,
        "--advertise-client-urls", etcdUrl, "--listen-peer-urls", peerUrl, "--initial-advertise-peer-urls", peerUrl,
        "--initial-cluster", "default=" + peerUrl, "--unsafe-no-fsync");
    HttpClient http = HttpClient.newBuilder().sslContext(trustingCa()).connectTimeout(Duration.ofSeconds(2)).build();
    awaitOk(KubeAssets.ETCD, etcd, http, etcdUrl + "/health", "\"health\":\"true\"");
    progress.accept("etcd ready on " + etcdUrl + " (peer port " + ports.etcdPeer() + ") after " + since(started));
    Process apiServer = launch(KubeAssets.API_SERVER, "--etcd-servers", etcdUrl, "--bind-address", LOOPBACK,
        "--advertise-address", LOOPBACK, "--secure-port", String.valueOf(ports.apiServer()),
        "--tls-cert-file", file("apiserver.crt"), "--tls-private-key-file", file("apiserver.key"),
        "--cert-dir", file("apiserver-certs"), "--client-ca-file", file("ca.crt"),
        "--token-auth-file", file("token.csv"), "--authorization-mode", "RBAC",
        "--service-account-issuer", "https://kubernetes.default.svc.cluster.local",
        "--service-account-key-file", file("sa.pub"), "--service-account-signing-key-file", file("sa.key"),
        "--service-cluster-ip-range", "10.0.0.0/24", "--disable-admission-plugins", "ServiceAccount",
        "--allow-privileged=true",
        // The node's host name resolves nowhere: a log request dialling it would wait on DNS before failing.
        "--kubelet-preferred-address-types", "InternalIP");
    awaitOk(KubeAssets.API_SERVER, apiServer, http, url + "/readyz", "ok");
    progress.accept("kube-apiserver ready on " + url + " after " + since(started));
    List<String> client = List.of("--kubeconfig", file("kubeconfig"), "--authentication-kubeconfig",
        file("kubeconfig"), "--authorization-kubeconfig", file("kubeconfig"), "--bind-address", LOOPBACK,
        "--secure-port", "0", "--leader-elect=false");
    if (assets.has(KubeAssets.CONTROLLER_MANAGER)) {
      List<String> args = new ArrayList<>(client);
      args.addAll(List.of("--service-account-private-key-file", file("sa.key"), "--root-ca-file", file("ca.crt"),
          "--controllers", "*"));
      launch(KubeAssets.CONTROLLER_MANAGER, args.toArray(String[]::new));
    }
    if (assets.has(KubeAssets.SCHEDULER)) {
      launch(KubeAssets.SCHEDULER, client.toArray(String[]::new));
    }
    synchronized (this) {
      checkOpen();
      this.client = credentials.client(url, NAMESPACE);
    }
    awaitDefaultNamespace();
    progress.accept("control plane ready after " + since(started) + "; logs in " + dir);
    return ports;
  }

  private void writeFiles() throws IOException, GeneralSecurityException {
    ApiCredentials.writePrivate(dir.resolve("ca.crt"), credentials.caPem());
    ApiCredentials.writePrivate(dir.resolve("apiserver.crt"), credentials.serverCertificatePem());
    ApiCredentials.writePrivate(dir.resolve("apiserver.key"), credentials.serverKeyPem());
    // The service accounts' tokens are signed with a key of their own, which nothing else uses.
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    KeyPair serviceAccounts = generator.generateKeyPair();
    ApiCredentials.writePrivate(dir.resolve("sa.key"), ApiCredentials.privateKeyPem(serviceAccounts.getPrivate()));
    ApiCredentials.writePrivate(dir.resolve("sa.pub"), ApiCredentials.publicKeyPem(serviceAccounts.getPublic()));
    // One user, an administrator: the run, kubectl with the printed kubeconfig, the controllers and scheduler.
    ApiCredentials.writePrivate(dir.resolve("token.csv"), credentials.token() + ",hooklens,hooklens,system:masters\n");
    credentials.writeKubeconfig(dir.resolve("kubeconfig"), url, NAMESPACE);
    Files.createDirectory(dir.resolve("apiserver-certs"));
  }

  private String file(String name) {
    return dir.resolve(name).toString();
  }

  private Process launch(String binary, String... args) throws InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(assets.binary(binary).toString());
    command.addAll(List.of(args));
    // Killed with the JVM, even by SIGKILL, where setpriv is here: no shutdown hook runs then.
    ProcessBuilder builder = new ProcessBuilder(Launcher.dyingWithJvm(command)).redirectErrorStream(true)
        .redirectOutput(dir.resolve(binary + ".log").toFile()).directory(dir.toFile());
    builder.environment().put(marker.getKey(), marker.getValue());
    synchronized (this) {
      checkOpen();
      try {
        Process process = Launcher.start(builder);
        processes.add(process);
        return process;
      } catch (IOException e) {
        throw new IllegalStateException("cannot start " + assets.binary(binary) + ": " + e.getMessage(), e);
      }
    }
  }

  /** Polls {@code address} until it answers 200 with {@code expected} in its body, the process dies, or time is up. */
  private void awaitOk(String binary, Process process, HttpClient http, String address, String expected)
      throws InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(URI.create(address)).timeout(Duration.ofSeconds(5))
        .header("Authorization", "Bearer " + credentials.token()).build();
    long deadline = System.nanoTime() + startTimeout.toNanos();
    while (true) {
      checkOpen();
      if (!process.isAlive()) {
        throw new IllegalStateException(binary + " ended with exit code " + process.exitValue() + " while starting: "
            + logTail(binary));
      }
      try {
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() == 200 && response.body().contains(expected)) {
          return;
        }
      } catch (IOException e) {
        // Not listening yet.
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(binary + " was not ready after " + startTimeout.toSeconds() + " s: "
            + logTail(binary));
      }
      Thread.sleep(POLL_MS);
    }
  }

  // The API server creates it just after it reports ready.
  private void awaitDefaultNamespace() throws InterruptedException {
    long deadline = System.nanoTime() + startTimeout.toNanos();
    while (true) {
      checkOpen();
      try {
        if (client.namespaces().withName(NAMESPACE).get() != null) {
          return;
        }
      } catch (KubernetesClientException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("no namespace " + NAMESPACE + " after " + startTimeout.toSeconds() + " s");
      }
      Thread.sleep(POLL_MS);
    }
  }

  private String logTail(String binary) {
    try (Stream<String> lines = Files.lines(dir.resolve(binary + ".log"))) {
      List<String> all = lines.toList();
      return String.join(" | ", all.subList(Math.max(0, all.size() - LOG_LINES), all.size()));
    } catch (IOException | UncheckedIOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  private synchronized void checkOpen() throws InterruptedException {
    if (closed) {
      throw new InterruptedException("the control plane was stopped while it started");
    }
  }

  private static String since(long nanos) {
    return String.format(java.util.Locale.ROOT, "%.2f s", (System.nanoTime() - nanos) / 1e9);
  }

  private SSLContext trustingCa() {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, credentials.trustOnlyCa(), null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  // Taken by the process soon after; another process taking it first fails that start with a clear log.
  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
      return socket.getLocalPort();
    }
  }

  @Override
  public synchronized KubernetesClient client() {
    return client;
  }

  @Override
  public String namespace() {
    return NAMESPACE;
  }

  public synchronized String url() {
    return url;
  }

  /** The folder of binaries it runs. */
  public KubeAssets assets() {
    return assets;
  }

  @Override
  public synchronized Path writeKubeconfig(Path file) throws IOException {
    return credentials.writeKubeconfig(file, url, NAMESPACE);
  }

  /**
   * Stops every process (SIGTERM, then SIGKILL after {@value #STOP_SECONDS} s), waits until each has exited, and
   * removes the folder. Safe to call more than once and from another thread, also while {@link #start} runs.
   */
  @Override
  public synchronized void close() {
    closed = true;
    if (client != null) {
      client.close();
    }
    // The scheduler and controllers first, etcd last, each once what depends on it has gone: an API server whose
    // etcd is gone waits out its own shutdown timeout.
    List<Process> stopping = new ArrayList<>(processes);
    java.util.Collections.reverse(stopping);
    for (Process p : stopping) {
      p.destroy();
      try {
        if (!p.waitFor(STOP_SECONDS, TimeUnit.SECONDS)) {
          p.destroyForcibly().waitFor();
        }
      } catch (InterruptedException e) {
        p.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
    processes.clear();
    if (dir != null) {
      deleteTree(dir);
      dir = null;
    }
  }

  /**
   * Removes the folders of runs whose JVM is gone: a SIGKILLed run's control plane dies with it, but no shutdown
   * hook removes its folder. Only this user's own directories (never a link) named with a dead process's id.
   */
  static void sweepStale(Path tmp) {
    try (Stream<Path> folders = Files.list(tmp)) {
      UserPrincipal me = tmp.getFileSystem().getUserPrincipalLookupService()
          .lookupPrincipalByName(System.getProperty("user.name"));
      for (Path folder : folders.toList()) {
        Matcher m = STALE.matcher(folder.getFileName().toString());
        if (m.matches() && Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)
            && me.equals(Files.getOwner(folder, LinkOption.NOFOLLOW_LINKS))
            && ProcessHandle.of(Long.parseLong(m.group(1))).isEmpty()) {
          deleteTree(folder);
        }
      }
    } catch (IOException | UncheckedIOException | NumberFormatException e) {
      // A folder that cannot be listed or read is left as it is.
    }
  }

  private static void deleteTree(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException | UncheckedIOException e) {
      java.util.logging.Logger.getLogger(ControlPlane.class.getName()).warning("cannot remove " + root + ": " + e);
    }
  }
}
