package io.hooklens.run;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.hooklens.core.engine.Finding;
import io.hooklens.core.model.helm.HelmOperation;
import io.hooklens.core.text.Printable;
import io.hooklens.core.yaml.Range;
import io.hooklens.run.cluster.ControlPlane;
import io.hooklens.run.cluster.EmbeddedCluster;
import io.hooklens.run.cluster.KubeAssets;
import io.hooklens.run.cluster.LocalCluster;
import io.hooklens.run.controllers.JobController;
import io.hooklens.run.helm.HelmHooks;
import io.hooklens.run.kube.PodLogs;
import io.hooklens.run.node.NodeAgent;
import io.hooklens.run.node.Timeline;
import io.hooklens.run.openshift.DeploymentConfigDeployer;
import io.hooklens.run.report.EventRecord;
import io.hooklens.run.report.JsonReport;
import io.hooklens.run.report.RunReport;
import io.hooklens.run.report.Sequence;
import io.hooklens.run.report.Signal;
import io.hooklens.run.report.Step;
import io.hooklens.run.report.SvgTimeline;
import io.hooklens.run.report.TextReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Runs a {@link RunPlan}: for each planned pod, creates it, waits until it runs (its postStart hooks
 * done), deletes it with its grace period (so that preStop, SIGTERM and SIGKILL happen), waits until it is
 * gone, and reads what happened. Everything goes through the fabric8 client, so the same scenario runs on
 * the embedded cluster (with its node agent, whose timeline gives exact times) or on a real cluster from a
 * kubeconfig context, in a namespace of its own that is deleted afterwards.
 *
 * <p>{@link #close()} may be called from another thread (a shutdown hook on Ctrl-C) while a run waits: it
 * stops the waiting, deletes what the run created and kills every process the node agent started.
 */
public final class Runner implements AutoCloseable {
  /** Where a run's progress goes, as it happens; {@code pod} and {@code what} come {@link Printable}, on one line. */
  public interface Progress {
    /**
     * @param seconds since the current pod was created
     * @param pod the pod's name
     */
    void line(double seconds, String pod, String what);
  }

  private static final long EXTRA_WAIT_SECONDS = 30;
  private static final long CLEAN_UP_MS = 60_000;
  private static final long SETTLE_NANOS = 3_000_000_000L;
  private static final long SETTLE_POLL_MS = 20;
  // Each part of a control plane gets this long to be ready, a start timeout permitting more.
  private static final long CONTROL_PLANE_SECONDS = 60;
  private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

  private final String context;
  private final Path kubeconfig;
  private final boolean envtest;
  private final Path kubeAssets;
  private final Images images;
  private final Progress progress;
  private final long startTimeoutSeconds;
  private final Object lock = new Object();
  private volatile boolean closed;
  private LocalCluster cluster;
  private ControlPlane plane;
  private final List<String> notes = new ArrayList<>();
  private NodeAgent agent;
  private JobController jobs;
  private Path apiConfig;
  private volatile PodObserver watching;
  private KubernetesClient client;
  private String namespace;
  private Long clusterStartMs;
  private final List<String> created = new ArrayList<>();

  private Runner(String context, Path kubeconfig, boolean envtest, Path kubeAssets, Images images,
      long startTimeoutSeconds, Progress progress) {
    this.context = context;
    this.kubeconfig = kubeconfig;
    this.envtest = envtest;
    this.kubeAssets = kubeAssets;
    this.images = images;
    this.startTimeoutSeconds = startTimeoutSeconds;
    // Progress names the manifest's containers and quotes what hooks print.
    this.progress = (seconds, pod, what) -> progress.line(seconds, Printable.line(pod), Printable.line(what));
  }

  /**
   * A runner on the embedded cluster and its node agent.
   *
   * @param images the images containers run from, by name (the caller closes them after the runner)
   * @param startTimeoutSeconds how long to wait for a pod's containers to run (postStart included)
   */
  public static Runner embedded(Images images, long startTimeoutSeconds, Progress progress) {
    return new Runner(null, null, false, null, images, startTimeoutSeconds, progress);
  }

  /**
   * A runner on a real control plane started for the run (etcd, kube-apiserver, and kube-controller-manager and
   * kube-scheduler when present) with the node agent as its kubelet; on the embedded cluster, saying so in the
   * progress and the report's notes, when no binaries are found.
   *
   * @param kubeAssets the folder of binaries, or null for {@code KUBEBUILDER_ASSETS}, then the cache of
   *     {@code scripts/kube-assets.sh}
   */
  public static Runner envtest(Path kubeAssets, Images images, long startTimeoutSeconds, Progress progress) {
    return new Runner(null, null, true, kubeAssets, images, startTimeoutSeconds, progress);
  }

  /**
   * A runner on the cluster of a kubeconfig context, in a namespace of its own.
   *
   * @param kubeconfig the kubeconfig file, or null for the client's default ({@code KUBECONFIG}, then
   *     {@code ~/.kube/config})
   */
  public static Runner context(String context, Path kubeconfig, long startTimeoutSeconds, Progress progress) {
    return new Runner(Objects.requireNonNull(context), kubeconfig, false, null, Images.NONE, startTimeoutSeconds,
        progress);
  }

  /** Why the embedded cluster does not run hooks here, and what to do about it. */
  public static final String NO_SANDBOX = "running hooks needs bubblewrap to sandbox them, and it is missing or "
      + "cannot create namespaces here: install it (Debian and Ubuntu: apt-get install bubblewrap; Fedora: dnf "
      + "install bubblewrap)";

  /** What a run without the sandbox leaves unprotected. */
  public static final String UNPROTECTED = "WARNING: no sandbox (--unsafe-no-sandbox): the commands run as plain "
      + "processes with your user's privileges, this machine's network and all its files; every process they "
      + "start is killed when the run ends";

  /** How the embedded node isolates containers here, in one line for a plan. */
  public static String sandboxDescription() {
    return "Sandbox: bubblewrap (each container in a user namespace of its own as an unprivileged user, without "
        + "capabilities, " + (NodeAgent.filtersSystemCalls() ? "under a seccomp filter, " : "without a seccomp "
        + "filter on this architecture, ") + "with a read-only minimal root and a private /tmp; each pod its own "
        + "network with only loopback, which carries the pod IP; memory limits " + (NodeAgent.enforcesMemoryLimits() ? "enforced" : "not "
        + "enforced on this machine") + ")";
  }

  /** Whether the embedded node can isolate containers here (bubblewrap works). */
  public static boolean sandboxAvailable() {
    return NodeAgent.isolationAvailable();
  }

  /**
   * Loads what a run loads without running anything, for a class-data-sharing archive: starts the embedded
   * cluster without a node (so no container starts), creates, watches and deletes the plan's first pod,
   * reads its events and renders the reports.
   */
  public static RunReport warmUp(RunPlan plan) throws InterruptedException {
    PodPlan pod = plan.pods().get(0);
    try (EmbeddedCluster cluster = EmbeddedCluster.start();
        PodObserver observer = new PodObserver(cluster.client(), EmbeddedCluster.NAMESPACE, pod.podName(), w -> { })) {
      Runner runner = new Runner(null, null, false, null, Images.NONE, 1, (s, p, w) -> { });
      runner.client = cluster.client();
      runner.namespace = EmbeddedCluster.NAMESPACE;
      long created = System.nanoTime();
      cluster.client().pods().inNamespace(runner.namespace).resource(pod.pod()).create();
      observer.await(() -> observer.started(1), 100, () -> false);
      cluster.client().pods().inNamespace(runner.namespace).withName(pod.podName()).delete();
      observer.await(() -> observer.goneNanos() != null, 1000, () -> false);
      Step step = new StepBuilder(pod, runner.namespace, created, System.nanoTime(), observer.goneNanos(), List.of(),
          null, 1000).fromApi(observer, runner.events(pod.podName()));
      RunReport report = new RunReport(RunReport.VERSION, plan.source(), "embedded", false, List.of(step), List.of(),
          List.of(), null);
      TextReport.render(report, 100, true);
      SvgTimeline.render(report);
      JsonReport.render(report);
      return report;
    }
  }

  /** The kubeconfig written for the embedded cluster while it runs, for kubectl; empty on a real cluster. */
  public Optional<Path> kubeconfig() {
    synchronized (lock) {
      return Optional.ofNullable(apiConfig);
    }
  }

  /** {@code embedded}, {@code envtest} (a real control plane of the run's own) or {@code context NAME}. */
  public String target() {
    synchronized (lock) {
      return context != null ? "context " + context : plane != null ? "envtest" : "embedded";
    }
  }

  /** The namespace the pods are created in; known once the run has begun. */
  public String namespace() {
    synchronized (lock) {
      return namespace;
    }
  }

  /**
   * Runs every pod of the plan, one after the other.
   *
   * @param findings the static findings of the same file, shown next to what happened
   * @throws IllegalStateException when the plan has problems, or the runner was closed
   * @throws RunException when the cluster cannot be reached or refuses a request
   * @throws InterruptedException when {@link #close()} stopped the run
   */
  public RunReport run(RunPlan plan, List<Finding> findings) throws InterruptedException {
    if (!plan.problems().isEmpty()) {
      throw new IllegalStateException("the plan has problems: " + plan.problems());
    }
    List<Step> steps = new ArrayList<>();
    try {
      open();
      if (agent != null) {
        agent.writableHostMounts(WritableHostPaths.of(plan.pods()));
      }
      if (plane != null) {
        validate(plan);
      }
      for (PodPlan pod : plan.pods()) {
        if (closed) {
          throw new InterruptedException("the run was stopped");
        }
        steps.add(runPod(pod, findings, plan::origin));
      }
    } catch (KubernetesClientException e) {
      if (closed) {
        throw new InterruptedException("the run was stopped");
      }
      throw new RunException("the cluster refused a request: " + apiMessage(e), e);
    }
    return new RunReport(RunReport.VERSION, plan.source(), target(), context == null && agent.isolated(), steps,
        List.of(), notes(steps), clusterStartMs);
  }

  /**
   * Runs a Helm operation's or event's hooks as Helm does, or a DeploymentConfig rollout as its deployer does.
   *
   * @param findings the static findings of the same manifests, shown next to what happened
   * @throws IllegalStateException when the plan has problems, or the runner was closed
   * @throws RunException when the cluster cannot be reached or refuses a request
   * @throws InterruptedException when {@link #close()} stopped the run
   */
  public RunReport run(SequencePlan plan, List<Finding> findings) throws InterruptedException {
    if (!plan.problems().isEmpty()) {
      throw new IllegalStateException("the plan has problems: " + plan.problems());
    }
    Sequence sequence;
    try {
      open();
      if (agent != null) {
        agent.writableHostMounts(WritableHostPaths.of(plan.doc()));
      }
      Timeline clock = agent != null ? agent.timeline() : new Timeline();
      long origin = clock.now();
      PodLogs logs = agent != null ? agent.logs() : PodLogs.api(client);
      SequenceBuilder builder = new SequenceBuilder(plan, namespace, origin, findings);
      if (plan.kind() == SequencePlan.Kind.HELM) {
        HelmHooks hooks = new HelmHooks(client, new HelmHooks.Options(namespace, plan.timeout(), logs, clock,
            line -> progress.line((clock.now() - origin) / 1e9, plan.name(), line)));
        HelmOperation operation = plan.operation();
        sequence = operation == null ? builder.event(hooks.runEvent(plan.doc(), plan.name()), clock.now())
            : builder.helm(hooks.run(plan.doc(), operation), clock.now());
      } else {
        DeploymentConfigDeployer deployer = new DeploymentConfigDeployer(client, new DeploymentConfigDeployer.Options(
            namespace, logs, clock, line -> progress.line((clock.now() - origin) / 1e9, plan.name(), line),
            plan.timeout().toSeconds()));
        sequence = builder.rollout(deployer.deploy(plan.deploymentConfig()), clock.now());
      }
    } catch (KubernetesClientException e) {
      if (closed) {
        throw new InterruptedException("the run was stopped");
      }
      throw new RunException("the cluster refused a request: " + apiMessage(e), e);
    }
    if (closed) {
      throw new InterruptedException("the run was stopped");
    }
    return new RunReport(RunReport.VERSION, plan.source(), target(), context == null && agent.isolated(), List.of(),
        List.of(sequence), notes(List.of()), clusterStartMs);
  }

  /** Whether a container has a startup or readiness probe, so that the pod is Ready only once they pass. */
  private static boolean probed(Pod pod) {
    return pod.getSpec().getContainers().stream()
        .anyMatch(c -> c.getStartupProbe() != null || c.getReadinessProbe() != null);
  }

  private void open() throws InterruptedException {
    long start = System.nanoTime();
    synchronized (lock) {
      if (closed) {
        throw new IllegalStateException("the runner is closed");
      }
      if (client != null) {
        return;
      }
      if (context != null) {
        openContext();
        return;
      }
    }
    // Found and asked for versions outside the lock, so that a Ctrl-C meanwhile is not held up.
    ControlPlane starting = envtest ? controlPlane() : null;
    synchronized (lock) {
      if (closed) {
        throw new InterruptedException("the run was stopped");
      }
      if (starting == null) {
        EmbeddedCluster embedded = EmbeddedCluster.start();
        cluster = embedded;
        client = embedded.client();
        agent = NodeAgent.start(client, images.byName());
        // A real cluster has its own Job controller; the embedded one needs ours for Helm's hook Jobs.
        jobs = JobController.start(client);
        namespace = embedded.namespace();
        writeApiConfig();
        clusterStartMs = (System.nanoTime() - start) / 1_000_000;
        return;
      }
      plane = starting;
      cluster = starting;
    }
    try {
      starting.start(line -> progress.line(0, "cluster", line));
    } catch (IllegalStateException e) {
      throw new RunException("the control plane did not start: " + e.getMessage(), e);
    }
    synchronized (lock) {
      if (closed) {
        throw new InterruptedException("the run was stopped");
      }
      KubernetesClient api = starting.client();
      boolean scheduler = starting.assets().has(KubeAssets.SCHEDULER);
      agent = NodeAgent.join(api, images.byName(), scheduler ? NodeAgent.Peer.SCHEDULED : NodeAgent.Peer.UNSCHEDULED);
      if (!starting.assets().has(KubeAssets.CONTROLLER_MANAGER)) {
        jobs = JobController.start(api);
      }
      client = api;
      namespace = starting.namespace();
      writeApiConfig();
      clusterStartMs = (System.nanoTime() - start) / 1_000_000;
    }
  }

  /**
   * Why {@link #envtest} would run on the embedded cluster on this machine (no control-plane binaries where it
   * looks), for a plan; empty when it finds them.
   */
  public static Optional<String> missingControlPlane(Path kubeAssets) {
    try {
      KubeAssets.find(kubeAssets, System.getenv());
      return Optional.empty();
    } catch (KubeAssets.Missing e) {
      return Optional.of(e.getMessage());
    }
  }

  /** The control plane to start, or null (and a note saying why) when there are no binaries. */
  private ControlPlane controlPlane() {
    KubeAssets assets;
    try {
      assets = KubeAssets.find(kubeAssets, System.getenv());
    } catch (KubeAssets.Missing e) {
      note(e.getMessage() + ", so this ran on the embedded cluster (fabric8's mock API, which validates and "
          + "defaults nothing) instead; " + KubeAssets.HOW_TO_GET);
      return null;
    }
    progress.line(0, "cluster", "control plane: " + assets.versions().entrySet().stream().map(v -> v.getKey() + " " + v.getValue())
        .collect(Collectors.joining(", ")) + " from " + assets.dir() + " (" + assets.from() + ")");
    if (!assets.has(KubeAssets.CONTROLLER_MANAGER)) {
      note("no kube-controller-manager in " + assets.dir() + ": Jobs ran under hooklens's own Job controller");
    }
    if (!assets.has(KubeAssets.SCHEDULER)) {
      note("no kube-scheduler in " + assets.dir() + ": the node bound pods to itself");
    }
    return new ControlPlane(assets, Map.entry(NodeAgent.markerVariable(), NodeAgent.markerPrefix() + "control-plane"),
        Duration.ofSeconds(Math.max(CONTROL_PLANE_SECONDS, startTimeoutSeconds)));
  }

  private void note(String note) {
    synchronized (lock) {
      notes.add(note);
    }
    progress.line(0, "cluster", note);
  }

  private List<String> notes(List<Step> steps) {
    List<String> all;
    synchronized (lock) {
      all = new ArrayList<>(notes);
    }
    if (context == null && !agent.isolated()) {
      all.add("bubblewrap is missing or cannot create namespaces here: containers and hooks ran as plain "
          + "processes with the host's network and filesystem");
      all.add(notPidOne(steps));
    }
    return all;
  }

  /**
   * What changes without the sandbox's PID namespace: the command is not PID 1, which the kernel spares from the
   * signals it has no handler for; the containers that were sent their stop signal are named.
   */
  static String notPidOne(List<Step> steps) {
    List<String> signalled = steps.stream().flatMap(s -> s.signals().stream()
        .filter(Signal::stop).map(g -> s.pod() + "/" + g.container())).distinct().toList();
    return "without the sandbox a container's command is not PID 1: a shell without a trap ends at SIGTERM here, "
        + "while on a cluster it ignores SIGTERM until SIGKILL"
        + (signalled.isEmpty() ? "" : "; the verdicts on how these containers ended depend on it: "
        + String.join(", ", signalled));
  }

  private void writeApiConfig() {
    try {
      // Private from its creation, as the kubeconfig in it: the token in it admits to the API.
      Path dir = Files.createTempDirectory("hooklens-run-",
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      apiConfig = cluster.writeKubeconfig(dir.resolve("kubeconfig"));
      progress.line(0, "cluster", "while it runs: kubectl --kubeconfig " + apiConfig + " get pods,jobs,events");
    } catch (IOException e) {
      progress.line(0, "cluster", "no kubeconfig for kubectl: " + e.getMessage());
    }
  }

  /**
   * A client for a kubeconfig context, as {@code run --context} and the cluster audit both resolve it.
   *
   * @param kubeconfig the kubeconfig file, or null for {@code KUBECONFIG}, then {@code ~/.kube/config}
   * @throws RunException when the kubeconfig has no such context
   */
  public static KubernetesClient contextClient(String context, Path kubeconfig) {
    Config config = kubeconfig == null ? Config.autoConfigure(context)
        : Config.fromKubeconfig(context, kubeconfig.toFile());
    if (config.getCurrentContext() == null || !context.equals(config.getCurrentContext().getName())) {
      throw new RunException("no context " + context + " in " + (kubeconfig == null ? "the kubeconfig"
          : kubeconfig), null);
    }
    return new KubernetesClientBuilder().withConfig(config).build();
  }

  private void openContext() {
    client = contextClient(context, kubeconfig);
    String name = "hooklens-run-" + randomSuffix();
    try {
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name)
          .addToLabels("app.kubernetes.io/managed-by", "hooklens").endMetadata().build()).create();
    } catch (KubernetesClientException e) {
      // Nothing of the run exists yet, so there is nothing to clean up, and a user who may not create a namespace
      // may not delete one either.
      client.close();
      client = null;
      throw new RunException("cannot create the run's namespace " + name + " with context " + context + ": "
          + apiMessage(e), e);
    }
    namespace = name;
  }

  /**
   * What the API server said, such as {@code namespaces is forbidden: User "x" cannot create resource
   * "namespaces"...}, rather than the client's message around it, which names a service account whatever the
   * user is.
   */
  private static String apiMessage(KubernetesClientException e) {
    return e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : e.getMessage();
  }

  /**
   * Has the real API server validate every pod of the plan (a dry-run create) before any runs, so that a manifest
   * it refuses is refused with its own message and nothing half-runs.
   */
  private void validate(RunPlan plan) {
    for (PodPlan pod : plan.pods()) {
      Pod object = pod.pod();
      object.getMetadata().setNamespace(namespace);
      try {
        client.pods().inNamespace(namespace).resource(object).dryRun().create();
      } catch (KubernetesClientException e) {
        throw new RunException("the API server refused " + pod.resource() + " (" + plan.source() + ":" + (pod.line() + 1)
            + "): " + apiMessage(e), e);
      }
    }
  }

  private static String randomSuffix() {
    SecureRandom random = new SecureRandom();
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < 5; i++) {
      s.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
    }
    return s.toString();
  }

  private Step runPod(PodPlan plan, List<Finding> findings, Function<Range, Origin> origins)
      throws InterruptedException {
    String name = plan.podName();
    long[] createdNanos = {System.nanoTime()};
    PodObserver.Changes seen = what -> progress.line(since(createdNanos[0]), name, what);
    if (agent != null) {
      String key = namespace + "/" + name;
      agent.timeline().listen(entry -> {
        if (entry.pod().equals(key) && entry.mark() != Timeline.Mark.OUTPUT) {
          progress.line((agent.timeline().origin() + entry.nanos() - createdNanos[0]) / 1e9, name, describe(entry));
        }
      });
    }
    try (PodObserver observer = new PodObserver(client, namespace, name, agent == null ? seen : what -> { })) {
      watching = observer;
      Pod pod = plan.pod();
      pod.getMetadata().setNamespace(namespace);
      createdNanos[0] = System.nanoTime();
      synchronized (lock) {
        if (closed) {
          throw new InterruptedException("the run was stopped");
        }
        client.pods().inNamespace(namespace).resource(pod).create();
        created.add(name);
      }
      progress.line(0, name, "pod created from " + plan.resource() + " in namespace " + namespace);
      boolean started = observer.await(() -> observer.started(plan.containers().size()),
          startTimeoutSeconds * 1000, () -> closed);
      if (!started && !closed) {
        progress.line(since(createdNanos[0]), name, "not all containers run after " + startTimeoutSeconds
            + " s; deleting the pod anyway");
      } else if (probed(pod) && !closed) {
        // A rollout or a scale-down deletes a pod once it is Ready; one whose probes never pass is deleted too.
        boolean ready = observer.await(observer::ready, startTimeoutSeconds * 1000, () -> closed);
        progress.line(since(createdNanos[0]), name, ready ? "pod Ready: its probes pass"
            : "not Ready after " + startTimeoutSeconds + " s; deleting the pod anyway");
      }
      long deleteNanos = System.nanoTime();
      progress.line(since(createdNanos[0]), name, "deleting (grace period " + plan.graceSeconds() + " s)");
      client.pods().inNamespace(namespace).withName(name).delete();
      long waitSeconds = plan.graceSeconds() + EXTRA_WAIT_SECONDS;
      if (!observer.await(() -> observer.goneNanos() != null, waitSeconds * 1000, () -> closed) && !closed) {
        progress.line(since(createdNanos[0]), name, "still there " + waitSeconds + " s after deletion; removing it");
        client.pods().inNamespace(namespace).withName(name).withGracePeriod(0).delete();
      }
      if (closed) {
        throw new InterruptedException("the run was stopped");
      }
      synchronized (lock) {
        created.remove(name);
      }
      StepBuilder step = new StepBuilder(plan, namespace, createdNanos[0], deleteNanos, observer.goneNanos(),
          findings, origins, startTimeoutSeconds * 1000);
      List<EventRecord> events = agent == null ? events(name) : settledEvents(name);
      return agent != null ? step.fromNode(agent.timeline(), observer, events) : step.fromApi(observer, events);
    }
  }

  private static double since(long nanos) {
    return (System.nanoTime() - nanos) / 1e9;
  }

  private static String describe(Timeline.Entry entry) {
    String who = entry.container() == null ? "" : "\"" + entry.container() + "\" ";
    String detail = entry.detail() == null || entry.detail().isBlank() ? "" : ": " + entry.detail().strip();
    return switch (entry.mark()) {
      case CONTAINER_STARTED -> "container " + who + "started" + detail;
      case POST_START_STARTED -> "postStart of " + who + "started";
      case POST_START_ENDED -> "postStart of " + who + (entry.failed() ? "failed" + detail : "ended");
      case RUNNING -> "container " + who + "Running";
      case DELETE_OBSERVED -> "node saw the deletion" + detail;
      case PRE_STOP_STARTED -> "preStop of " + who + "started";
      case PRE_STOP_ENDED -> "preStop of " + who + (entry.failed() ? "failed" + detail : "ended");
      case PRE_STOP_ABANDONED -> "preStop of " + who + "cut off" + detail;
      case STOP_SIGNAL -> Timeline.signal(entry) + " to " + who.strip() + ": "
          + entry.detail().substring(entry.detail().indexOf(", ") + 2);
      case SIGKILL -> "SIGKILL to " + who.strip() + detail;
      case EXITED -> "container " + who + "exited" + detail;
      case WARNING -> "warning" + detail;
      case READY -> "container " + who + "Ready";
      case NOT_READY -> "container " + who + "not Ready";
      case PROBE_FAILED, PROBE_KILL -> who + detail.substring(2);
      case OUTPUT -> "output of " + who + "read";
    };
  }

  /**
   * The pod's events once the node is done with it: a hook cut off at the grace period ends (and a failed
   * one records its event) only when its container is killed, which may be just after the pod is gone.
   */
  private List<EventRecord> settledEvents(String pod) throws InterruptedException {
    String key = namespace + "/" + pod;
    long deadline = System.nanoTime() + SETTLE_NANOS;
    while (true) {
      List<Timeline.Entry> entries = agent.timeline().of(key);
      long started = entries.stream().filter(e -> e.mark() == Timeline.Mark.POST_START_STARTED
          || e.mark() == Timeline.Mark.PRE_STOP_STARTED).count();
      List<Timeline.Entry> ended = entries.stream().filter(e -> e.mark() == Timeline.Mark.POST_START_ENDED
          || e.mark() == Timeline.Mark.PRE_STOP_ENDED).toList();
      List<EventRecord> events = events(pod);
      boolean recorded = ended.stream().filter(Timeline.Entry::failed).allMatch(e -> events.stream().anyMatch(ev ->
          ev.reason().equals(e.mark() == Timeline.Mark.PRE_STOP_ENDED ? "FailedPreStopHook" : "FailedPostStartHook")
              && e.container().equals(ev.container())));
      boolean read = entries.stream().filter(e -> e.mark() == Timeline.Mark.OUTPUT).count()
          >= entries.stream().filter(e -> e.mark() == Timeline.Mark.EXITED).count();
      if (ended.size() >= started && recorded && read || System.nanoTime() > deadline) {
        return events;
      }
      Thread.sleep(SETTLE_POLL_MS);
    }
  }

  /** The pod's events, oldest first, read through the API. */
  private List<EventRecord> events(String pod) {
    List<Event> items = new ArrayList<>(client.v1().events().inNamespace(namespace).list().getItems().stream()
        .filter(e -> e.getInvolvedObject() != null && pod.equals(e.getInvolvedObject().getName())).toList());
    items.sort(Comparator.comparing((Event e) -> Objects.toString(time(e), ""))
        .thenComparing(e -> e.getMetadata().getName()));
    List<EventRecord> records = new ArrayList<>();
    for (Event e : items) {
      String fieldPath = e.getInvolvedObject().getFieldPath();
      String container = fieldPath != null && fieldPath.startsWith("spec.containers{") && fieldPath.endsWith("}")
          ? fieldPath.substring("spec.containers{".length(), fieldPath.length() - 1) : null;
      records.add(new EventRecord(e.getType(), e.getReason(), e.getMessage(), container, time(e)));
    }
    return records;
  }

  private static String time(Event e) {
    if (e.getLastTimestamp() != null) {
      return e.getLastTimestamp();
    }
    if (e.getFirstTimestamp() != null) {
      return e.getFirstTimestamp();
    }
    return e.getEventTime() == null ? null : e.getEventTime().getTime();
  }

  private void deleteApiConfig() {
    if (apiConfig != null) {
      try {
        Files.deleteIfExists(apiConfig);
        Files.deleteIfExists(apiConfig.getParent());
      } catch (IOException e) {
        progress.line(0, "cluster", "cannot delete " + apiConfig + ": " + e.getMessage());
      }
      apiConfig = null;
    }
  }

  /**
   * Deletes the run's pods and namespace from the cluster of a context. An API that does not answer is asked again
   * until {@link #CLEAN_UP_MS} have passed: fabric8's mock API stops answering for up to 30 s after a watch closes
   * while it still sends events, and a real API server may be briefly unreachable. An answer (forbidden, say) is
   * final.
   */
  private void deleteWhatTheRunCreated() {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLEAN_UP_MS);
    while (true) {
      try {
        for (String pod : created) {
          client.pods().inNamespace(namespace).withName(pod).withGracePeriod(0).delete();
        }
        client.namespaces().withName(namespace).delete();
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() > 0 || System.nanoTime() > deadline) {
          progress.line(0, "", "cannot clean up namespace " + namespace + ": " + e.getMessage());
          return;
        }
      }
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        progress.line(0, "", "cannot clean up namespace " + namespace + ": interrupted");
        return;
      }
    }
  }

  /**
   * Stops waiting, deletes the pods and the namespace the run created, kills every process the node
   * agent started and closes the client. Safe to call more than once and from another thread.
   */
  @Override
  public void close() {
    synchronized (lock) {
      closed = true;
      if (client == null) {
        // A control plane still starting stops here: what it started goes, and its start gives up.
        if (cluster != null) {
          cluster.close();
        }
        return;
      }
      // The run's own watch goes first: a watch closed while the API still delivers events to it stalls the
      // embedded API (fabric8's mock waits for its event sender on the server's only event loop).
      PodObserver w = watching;
      if (w != null) {
        w.close();
      }
      try {
        // The embedded cluster goes as a whole, its processes with the node; a real one keeps what is not deleted.
        if (context != null) {
          deleteWhatTheRunCreated();
        }
      } finally {
        created.clear();
        if (jobs != null) {
          jobs.close();
        }
        if (agent != null) {
          agent.close();
        }
        if (cluster != null) {
          cluster.close();
        } else {
          client.close();
        }
        deleteApiConfig();
        client = null;
      }
    }
  }
}
