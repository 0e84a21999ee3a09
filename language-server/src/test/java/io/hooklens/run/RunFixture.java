package io.hooklens.run;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hooklens.run.cluster.ControlPlane;
import io.hooklens.run.cluster.EmbeddedCluster;
import io.hooklens.run.cluster.KubeAssets;
import io.hooklens.run.cluster.LocalCluster;
import io.hooklens.run.controllers.JobController;
import io.hooklens.run.node.Image;
import io.hooklens.run.node.NodeAgent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.opentest4j.TestAbortedException;

/**
 * A cluster with our node agent as its kubelet (bubblewrap required) and a Job controller, with back-offs short
 * enough for tests; and the waits tests need, bounded, never a bare sleep. The cluster is the embedded API or a
 * real control plane (etcd, kube-apiserver, and the controller manager and scheduler when present), which
 * skips the test, saying how to build them, without its binaries.
 */
public final class RunFixture implements AutoCloseable {
  /** The node's crash-loop back-off in tests, the kubelet's 10 s shortened; the sequence stays the kubelet's. */
  public static final Duration SHORT_BACKOFF = Duration.ofMillis(200);

  /** Which cluster the node agent joins. */
  public enum Kind {
    EMBEDDED, ENVTEST
  }

  public final Kind kind;
  public final LocalCluster cluster;
  public final KubernetesClient client;
  public final NodeAgent agent;
  /** Ours, where no controller manager runs Jobs: on the embedded API, or a control plane without one. */
  public final JobController jobs;

  public RunFixture() {
    this(Kind.EMBEDDED);
  }

  public RunFixture(Kind kind) {
    this(kind, Map.of());
  }

  /** An embedded cluster whose node has {@code images}, by name. */
  public RunFixture(Map<String, Image> images) {
    this(Kind.EMBEDDED, images);
  }

  private RunFixture(Kind kind, Map<String, Image> images) {
    this.kind = kind;
    cluster = kind == Kind.EMBEDDED ? EmbeddedCluster.start() : controlPlane();
    try {
      client = cluster.client();
      if (kind == Kind.EMBEDDED) {
        agent = NodeAgent.start(client, images);
        jobs = JobController.start(client, SHORT_BACKOFF);
      } else {
        KubeAssets assets = ((ControlPlane) cluster).assets();
        agent = NodeAgent.join(client, images, assets.has(KubeAssets.SCHEDULER) ? NodeAgent.Peer.SCHEDULED
            : NodeAgent.Peer.UNSCHEDULED);
        jobs = assets.has(KubeAssets.CONTROLLER_MANAGER) ? null : JobController.start(client, SHORT_BACKOFF);
      }
    } catch (RuntimeException e) {
      cluster.close();
      throw e;
    }
    agent.restartBackoff(SHORT_BACKOFF);
    assertTrue(agent.isolated(), "bubblewrap must be installed (run-tests installs it)");
  }

  /** The control plane's binaries, or the test skipped saying how to build them. */
  public static KubeAssets binariesOrSkip() {
    try {
      return KubeAssets.find(null, System.getenv());
    } catch (KubeAssets.Missing e) {
      return Assumptions.abort(e.getMessage() + "; build them with scripts/kube-assets.sh (30 min and more the "
          + "first time)");
    }
  }

  private static ControlPlane controlPlane() {
    ControlPlane plane = new ControlPlane(binariesOrSkip(), Map.entry(NodeAgent.markerVariable(),
        NodeAgent.markerPrefix() + "control-plane"), Duration.ofSeconds(120));
    try {
      plane.start(line -> { });
      return plane;
    } catch (InterruptedException e) {
      plane.close();
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while the control plane started", e);
    } catch (RuntimeException e) {
      plane.close();
      throw e;
    }
  }

  /** Makes a namespace for a test's objects: a real API server refuses objects in one that does not exist. */
  public String namespace(String name) {
    if (client.namespaces().withName(name).get() == null) {
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
          .create();
    }
    return name;
  }

  /**
   * One fixture of each kind for a test class, started when a test first asks for it (a control plane takes
   * some seconds) and closed with the class; a kind that was skipped once is skipped for the others with the
   * same reason.
   */
  public static final class PerClass implements AutoCloseable {
    private final Map<Kind, RunFixture> started = new EnumMap<>(Kind.class);
    private final Map<Kind, TestAbortedException> skipped = new EnumMap<>(Kind.class);

    public synchronized RunFixture get(Kind kind) {
      if (skipped.containsKey(kind)) {
        throw skipped.get(kind);
      }
      RunFixture fixture = started.get(kind);
      if (fixture == null) {
        try {
          fixture = new RunFixture(kind);
        } catch (TestAbortedException e) {
          skipped.put(kind, e);
          throw e;
        }
        started.put(kind, fixture);
      }
      return fixture;
    }

    @Override
    public synchronized void close() {
      started.values().forEach(RunFixture::close);
      started.clear();
    }
  }

  /** Waits until {@code value} gives a non-null result, for at most {@code millis}. */
  public <T> T await(String what, Supplier<T> value, long millis) throws InterruptedException {
    long deadline = System.currentTimeMillis() + millis;
    while (System.currentTimeMillis() < deadline) {
      T result = value.get();
      if (result != null) {
        return result;
      }
      Thread.sleep(20);
    }
    fail("never: " + what + "; node timeline: " + agent.timeline().entries());
    return null;
  }

  /**
   * Opens a folder of the test to the sandbox's user, as a user must for a hostPath or an unpacked image: the
   * containers run as an unprivileged uid, which may read (and, when {@code writable}, write) only what
   * everybody may. JUnit's temporary folders are the owner's alone.
   */
  public static void openToSandbox(Path dir, boolean writable) throws IOException {
    Set<PosixFilePermission> folders = PosixFilePermissions.fromString(writable ? "rwxrwxrwx" : "rwxr-xr-x");
    try (Stream<Path> tree = Files.walk(dir)) {
      for (Path p : tree.toList()) {
        if (Files.isSymbolicLink(p)) {
          continue;
        }
        Set<PosixFilePermission> mode = Files.isDirectory(p) ? folders : new HashSet<>(Files.getPosixFilePermissions(p));
        if (!Files.isDirectory(p)) {
          mode.add(PosixFilePermission.OTHERS_READ);
          if (mode.contains(PosixFilePermission.OWNER_EXECUTE)) {
            mode.add(PosixFilePermission.OTHERS_EXECUTE);
          }
        }
        Files.setPosixFilePermissions(p, mode);
      }
    }
  }

  /** Events about objects of one kind and name in any namespace, oldest first, as reason and message. */
  public List<String> events(String kind, String name) {
    return client.v1().events().inAnyNamespace().list().getItems().stream()
        .filter(e -> kind.equals(e.getInvolvedObject().getKind()) && name.equals(e.getInvolvedObject().getName()))
        .map(RunFixture::describe).toList();
  }

  /**
   * The events about an object once one with {@code reason} is among them: a controller records the event
   * after the status it explains, so a test that saw the status waits for it.
   */
  public List<String> eventsUntil(String kind, String name, String reason) throws InterruptedException {
    return await(kind + "/" + name + " has a " + reason + " event", () -> {
      List<String> events = events(kind, name);
      return events.stream().anyMatch(e -> e.startsWith(reason + ":")) ? events : null;
    }, 20_000);
  }

  private static String describe(Event e) {
    return e.getReason() + ": " + e.getMessage();
  }

  @Override
  public void close() {
    if (jobs != null) {
      jobs.close();
    }
    agent.close();
    cluster.close();
  }
}
