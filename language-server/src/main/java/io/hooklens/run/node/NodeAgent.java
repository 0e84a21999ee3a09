package io.hooklens.run.node;

import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.hooklens.run.kube.BoundedOutput;
import io.hooklens.run.kube.EventRecorder;
import io.hooklens.run.kube.PodLogs;
import io.hooklens.run.node.Timeline.Mark;
import io.hooklens.run.process.Reaper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;

/**
 * A one-node kubelet. It watches pods through the API (the CRUD mock serves watches over WebSocket, so no
 * polling), runs each pod's containers as local processes in a {@link Sandbox}, runs lifecycle hooks with the
 * kubelet's semantics, and writes pod status and events back. On the embedded mock it also binds every unbound
 * pod to itself; on a real API server it {@link #join joins} as the kubelet does (a Node, a Lease) and runs the
 * pods bound to it. Everything it starts carries {@value Sandbox#MARKER} in its environment and is killed on
 * {@link #close()}.
 */
public final class NodeAgent implements AutoCloseable {
  public static final String NODE_NAME = "hooklens-node";
  /** The kubelet's initial crash-loop back-off. */
  public static final Duration DEFAULT_RESTART_BACKOFF = Duration.ofSeconds(10);
  private static final Logger LOG = Logger.getLogger(NodeAgent.class.getName());
  private static final AtomicInteger INSTANCES = new AtomicInteger();
  // Pod IPs are given from 10.244.0.0/16, as a cluster's pod network; each pod has a network of its own.
  private final AtomicInteger podIps = new AtomicInteger();
  // Killed processes are gone at once; this bounds the wait for a pod whose loop is stuck.
  private static final long STOP_SECONDS = 30;

  private final KubernetesClient client;
  private final Sandbox sandbox;
  private final Timeline timeline = new Timeline();
  private final HandlerRunner hooks;
  private final SocketProbes sockets;
  private final EventRecorder events;
  private final ExecutorService executor = Executors.newCachedThreadPool(daemon("hooklens-node"));
  private final ExecutorService watchEvents = Executors.newSingleThreadExecutor(daemon("hooklens-node-watch"));
  private volatile Duration restartBackoff = DEFAULT_RESTART_BACKOFF;
  private Path volumeRoot;
  private final Map<String, PodWorker> workers = new ConcurrentHashMap<>();
  private volatile Set<HostMount> writableHostMounts = Set.of();
  private final Map<String, Image> images;
  private Peer peer = Peer.NONE;
  private NodeRegistration registration;
  private volatile Watch watch;
  private volatile boolean closed;

  private NodeAgent(KubernetesClient client, Sandbox sandbox, Map<String, Image> images) {
    this.client = client;
    this.sandbox = sandbox;
    this.images = Map.copyOf(images);
    this.hooks = new HandlerRunner(sandbox);
    this.sockets = new SocketProbes(sandbox);
    this.events = new EventRecorder(client, NODE_NAME);
  }

  /** Starts the agent with bubblewrap isolation when it works here, else plain processes and a warning. */
  public static NodeAgent start(KubernetesClient client) {
    return start(client, Map.of());
  }

  /**
   * Starts the agent (isolated where bubblewrap works) with images: a container whose {@code image} is a key runs
   * with that image's filesystem as its read-only root, and its entrypoint, env and working directory.
   */
  public static NodeAgent start(KubernetesClient client, Map<String, Image> images) {
    return start(client, images, Peer.NONE);
  }

  /** Whether containers' {@code resources.limits.memory} is enforced here (a cgroup v1 memory controller). */
  public static boolean enforcesMemoryLimits() {
    return Sandbox.memoryController().isPresent();
  }

  /** Whether the sandbox filters system calls here: only x86-64 has a table. */
  public static boolean filtersSystemCalls() {
    return SeccompFilter.forThisMachine().length > 0;
  }

  /** Whether containers would run isolated here: bubblewrap is installed and can create namespaces. */
  public static boolean isolationAvailable() {
    return Sandbox.available();
  }

  /** Starts the agent with plain process groups even where bubblewrap works. */
  public static NodeAgent startUnisolated(KubernetesClient client) {
    return start(client, Sandbox.plain(newMarker()), Map.of());
  }

  private static NodeAgent start(KubernetesClient client, Sandbox sandbox, Map<String, Image> images) {
    NodeAgent agent = new NodeAgent(client, sandbox, images);
    agent.watch();
    return agent;
  }

  /** How the node takes part in a real cluster's API. */
  public enum Peer {
    /** The embedded mock: no Node object, and the node binds pods itself with a patch. */
    NONE,
    /** A real API server with a scheduler: a registered Node that runs the pods the scheduler binds to it. */
    SCHEDULED,
    /** A real API server without a scheduler: a registered Node that binds pods to itself with a Binding. */
    UNSCHEDULED
  }

  /**
   * Starts the agent as a real API server's node (isolated where bubblewrap works): registers its Node and Lease
   * first, then watches the pods bound to it, or with {@link Peer#UNSCHEDULED} every pod, binding the unbound.
   */
  public static NodeAgent join(KubernetesClient client, Map<String, Image> images, Peer peer) {
    return start(client, images, peer);
  }

  private static NodeAgent start(KubernetesClient client, Map<String, Image> images, Peer peer) {
    Sandbox sandbox;
    try {
      sandbox = Sandbox.detect(newMarker());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare the sandbox", e);
    }
    if (!sandbox.isolated()) {
      LOG.warning("bubblewrap is missing or cannot create namespaces here: hooks run as plain processes with the "
          + "host's network and filesystem (install Debian's bubblewrap to isolate them)");
    }
    NodeAgent agent = new NodeAgent(client, sandbox, images);
    agent.peer = peer;
    if (peer != Peer.NONE) {
      agent.registration = NodeRegistration.register(client, NODE_NAME);
    }
    agent.watch();
    return agent;
  }

  /**
   * The environment value that marks this JVM's node processes: {@code <jvm pid>-<agent number>}; whatever carries
   * it once the JVM has ended is killed.
   */
  private static String newMarker() {
    try {
      Reaper.watch(Sandbox.MARKER, markerPrefix());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the watcher that ends the run's processes with this JVM", e);
    }
    return markerPrefix() + INSTANCES.incrementAndGet();
  }

  /** What every marker of this JVM starts with; a test looks for leftover processes by it. */
  public static String markerPrefix() {
    return ProcessHandle.current().pid() + "-";
  }

  public static String markerVariable() {
    return Sandbox.MARKER;
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    };
  }

  private void watch() {
    // On a real API server with a scheduler, only the pods bound here, as the kubelet watches.
    var pods = peer == Peer.SCHEDULED ? client.pods().inAnyNamespace().withField("spec.nodeName", NODE_NAME)
        : client.pods().inAnyNamespace();
    watch = pods.watch(new Watcher<Pod>() {
      @Override
      public void eventReceived(Action action, Pod pod) {
        watchEvents.execute(() -> onPod(action, pod));
      }

      @Override
      public void onClose(WatcherException cause) {
        if (!closed) {
          LOG.log(Level.WARNING, "pod watch closed; watching again", cause);
          watch();
        }
      }
    });
  }

  private void onPod(Watcher.Action action, Pod pod) {
    if (closed) {
      return;
    }
    String uid = pod.getMetadata().getUid();
    PodWorker worker = workers.get(uid);
    if (action == Watcher.Action.DELETED) {
      if (worker != null) {
        workers.remove(uid);
        worker.stop();
      }
      return;
    }
    if (worker == null) {
      String node = pod.getSpec().getNodeName();
      String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
      if ((node != null && !node.equals(NODE_NAME)) || "Succeeded".equals(phase) || "Failed".equals(phase)
          || pod.getMetadata().getDeletionTimestamp() != null) {
        return;
      }
      if (node == null && !bind(pod)) {
        return;
      }
      worker = new PodWorker(this, pod);
      workers.put(uid, worker);
      worker.start();
    }
    if (pod.getMetadata().getDeletionTimestamp() != null) {
      Long grace = pod.getMetadata().getDeletionGracePeriodSeconds();
      worker.terminate(grace == null ? 0 : grace);
    }
  }

  // The scheduler's part where none runs: this is the only node. A real API server takes a Binding, as from
  // the scheduler (its nodeName cannot be patched); the mock takes the patch.
  private boolean bind(Pod pod) {
    try {
      if (peer == Peer.UNSCHEDULED) {
        client.bindings().inNamespace(pod.getMetadata().getNamespace()).resource(new BindingBuilder()
            .withNewMetadata().withName(pod.getMetadata().getName()).withUid(pod.getMetadata().getUid()).endMetadata()
            .withNewTarget().withApiVersion("v1").withKind("Node").withName(NODE_NAME).endTarget().build()).create();
        scheduled(pod);
        // The pod comes back bound through the watch.
        return false;
      }
      client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName())
          .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"nodeName\":\"" + NODE_NAME + "\"}}");
    } catch (KubernetesClientException e) {
      LOG.log(Level.WARNING, "cannot bind pod " + pod.getMetadata().getName(), e);
      return false;
    }
    pod.getSpec().setNodeName(NODE_NAME);
    scheduled(pod);
    return true;
  }

  private void scheduled(Pod pod) {
    events.record(pod, null, "default-scheduler", false, "Scheduled", "Successfully assigned "
        + pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName() + " to " + NODE_NAME);
  }

  public Timeline timeline() {
    return timeline;
  }

  /**
   * Sets the first crash-loop back-off before a container is restarted (then doubled per restart, at most
   * five minutes); the kubelet's is {@link #DEFAULT_RESTART_BACKOFF}. A shorter one keeps scenarios short.
   */
  /** A hostPath mounted at a path in a container. */
  public record HostMount(String hostPath, String mountPath) {}

  /**
   * The hostPath mounts the run's manifest makes writable ({@code readOnly: false}), which a real API server does not
   * pass on; the others are read-only.
   */
  public NodeAgent writableHostMounts(Set<HostMount> mounts) {
    writableHostMounts = Set.copyOf(mounts);
    return this;
  }

  Set<HostMount> writableHostMounts() {
    return writableHostMounts;
  }

  public NodeAgent restartBackoff(Duration initial) {
    restartBackoff = initial;
    return this;
  }

  Duration restartBackoff() {
    return restartBackoff;
  }

  /**
   * Where the pods' emptyDir volumes live: a private directory of this agent, owned by the sandbox's user,
   * removed on close.
   */
  synchronized Path volumeRoot() throws IOException {
    if (volumeRoot == null) {
      volumeRoot = Files.createTempDirectory("hooklens-volumes");
      Sandbox.share(volumeRoot);
    }
    return volumeRoot;
  }

  /**
   * Makes a tree the run unpacked for its containers (an image's files) the sandbox user's, as a container
   * runtime's user owns its container's files; never for the user's own folders.
   */
  public static void giveToSandbox(Path tree) throws IOException {
    Sandbox.share(tree);
  }

  static void deleteTree(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException | UncheckedIOException e) {
      LOG.log(Level.WARNING, "cannot remove " + root, e);
    }
  }

  /** Whether containers run isolated (bubblewrap) rather than as plain processes. */
  public boolean isolated() {
    return sandbox.isolated();
  }

  /** A container's output so far, or empty when the node does not run that pod. */
  public BoundedOutput.Tail log(String namespace, String pod, String container) {
    return workers.values().stream().filter(w -> w.key().equals(namespace + "/" + pod)).findFirst()
        .map(w -> w.log(container)).orElse(BoundedOutput.Tail.EMPTY);
  }

  /** What the hook controllers read containers' output from: this node, which also knows each run's own. */
  public PodLogs logs() {
    return new PodLogs() {
      @Override
      public BoundedOutput.Tail read(String namespace, String pod, String container) {
        return log(namespace, pod, container);
      }

      @Override
      public List<Run> runs(String namespace, String pod, String container) {
        return NodeAgent.this.runs(namespace, pod, container);
      }
    };
  }

  /** A container's ended runs from the timeline: the n-th exit is run n's, and each output mark names its run. */
  private List<PodLogs.Run> runs(String namespace, String pod, String container) {
    List<Timeline.Entry> entries = timeline.of(namespace + "/" + pod).stream()
        .filter(e -> container.equals(e.container())).toList();
    List<Integer> exits = entries.stream().filter(e -> e.mark() == Mark.EXITED)
        .map(e -> Integer.valueOf(e.detail().substring(e.detail().lastIndexOf(' ') + 1))).toList();
    Map<Integer, BoundedOutput.Tail> outputs = new HashMap<>();
    entries.stream().filter(e -> e.mark() == Mark.OUTPUT).forEach(e -> outputs.put(Integer.valueOf(e.detail()),
        new BoundedOutput.Tail(e.output(), e.outputDroppedBytes())));
    List<PodLogs.Run> runs = new ArrayList<>();
    for (int i = 0; i < exits.size(); i++) {
      runs.add(new PodLogs.Run(exits.get(i), outputs.getOrDefault(i, BoundedOutput.Tail.EMPTY)));
    }
    return runs;
  }

  // Requests cut short by close() are expected, not worth a warning.
  boolean closed() {
    return closed;
  }

  /** The image a container runs from, or null when it runs on the host's files. */
  Image image(String name) {
    return name == null ? null : images.get(name);
  }

  KubernetesClient client() {
    return client;
  }

  Sandbox sandbox() {
    return sandbox;
  }

  /** The next pod's IP: 10.244.0.1, 10.244.0.2, ... 10.244.0.254, 10.244.1.1, ... */
  String nextPodIp() {
    int n = podIps.getAndIncrement() % (256 * 254);
    return "10.244." + n / 254 + "." + (n % 254 + 1);
  }

  HandlerRunner hooks() {
    return hooks;
  }

  SocketProbes sockets() {
    return sockets;
  }

  EventRecorder events() {
    return events;
  }

  ExecutorService executor() {
    return executor;
  }

  /** Stops watching and kills every process the agent started. */
  @Override
  public void close() {
    closed = true;
    if (registration != null) {
      registration.close();
    }
    if (watch != null) {
      watch.close();
    }
    watchEvents.shutdownNow();
    List<PodWorker> all = List.copyOf(workers.values());
    workers.clear();
    try {
      CompletableFuture.allOf(all.stream().map(PodWorker::stop).toArray(CompletableFuture[]::new))
          .get(STOP_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      LOG.log(Level.WARNING, "pods not stopped in " + STOP_SECONDS + " s; killing what is left", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    executor.shutdownNow();
    try {
      executor.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    sandbox.killMarked();
    synchronized (this) {
      if (volumeRoot != null) {
        deleteTree(volumeRoot);
      }
    }
    sandbox.close();
  }
}
