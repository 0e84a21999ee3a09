package io.hooklens.run.node;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.LifecycleHandler;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.hooklens.run.kube.BoundedOutput;
import io.hooklens.run.node.Timeline.Mark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One pod on the node: starts its containers in order (each postStart runs while the entrypoint runs,
 * and the next container starts only when it returns), and stops them as the kubelet's
 * {@code killContainer} does. Writes the pod's status and events.
 */
final class PodWorker {
  private static final Logger LOG = Logger.getLogger(PodWorker.class.getName());
  private static final long DEFAULT_GRACE_SECONDS = 30;
  // kuberuntime's minimumGracePeriodInSeconds: what the container gets after SIGTERM at the least.
  static final long MINIMUM_STOP_SECONDS = 2;
  // The kubelet's MaxContainerBackOff.
  private static final long MAX_BACKOFF_MILLIS = 300_000;
  /** How soon a container whose ConfigMap or Secret is missing is tried again: the kubelet's next pod sync. */
  private static final long CONFIG_RETRY_MILLIS = 1_000;
  private static final long INIT_POLL_MILLIS = 20;
  private static final String DEADLINE_MESSAGE = "Pod was active on the node longer than the specified deadline";

  private final NodeAgent agent;
  private final String key;
  private final Pod pod;
  private final List<Slot> slots = new ArrayList<>();
  private final List<Slot> inits = new ArrayList<>();
  private final Instant startTime = Instant.now();
  private final Object statusLock = new Object();
  private Sandbox.PodNetwork network;
  private boolean terminating;
  private boolean stopped;
  private boolean deadlineExceeded;
  // An init container failed under restartPolicy Never: the pod failed before its app containers started.
  private boolean initFailed;
  // Every app container has ended: sidecars are stopped now, and not restarted.
  private boolean appsDone;
  private Path volumes;

  /** What a container is to the pod: an app container, an init container run to completion, or a sidecar. */
  private enum Kind { APP, INIT, SIDECAR }

  /** A container of the pod and what the node knows of it. */
  private final class Slot {
    final Container spec;
    final Kind kind;
    final Map<String, String> env = new LinkedHashMap<>();
    // What it printed, over all its runs.
    final BoundedOutput printed = new BoundedOutput();
    volatile CountDownLatch exited = new CountDownLatch(1);
    Sandbox.ContainerProcess process;
    HookRunner.Output log;
    Instant startedAt;
    Instant finishedAt;
    boolean running;
    Integer exitCode;
    String reason;
    String message;
    int restartCount;
    boolean backingOff;
    // Why the container cannot be created yet, while it waits in CreateContainerConfigError.
    String configError;
    // The run before the current one, as lastState shows it after a restart.
    ContainerState lastState;

    Slot(Container spec, Kind kind) {
      this.spec = spec;
      this.kind = kind;
    }
  }

  PodWorker(NodeAgent agent, Pod pod) {
    this.agent = agent;
    this.pod = pod;
    this.key = pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    for (Container container : pod.getSpec().getInitContainers() == null ? List.<Container>of()
        : pod.getSpec().getInitContainers()) {
      inits.add(new Slot(container, "Always".equals(container.getRestartPolicy()) ? Kind.SIDECAR : Kind.INIT));
    }
    for (Container container : pod.getSpec().getContainers()) {
      slots.add(new Slot(container, Kind.APP));
    }
  }

  String key() {
    return key;
  }

  /** Starts the containers one after the other, as the kubelet's SyncPod does. */
  void start() {
    try {
      Sandbox.PodNetwork opened = agent.sandbox().openNetwork();
      synchronized (this) {
        if (stopped) {
          opened.close();
          return;
        }
        network = opened;
      }
    } catch (IOException e) {
      for (Slot slot : all()) {
        finish(slot, 128, "StartError", e.getMessage());
      }
      publishStatus();
      return;
    }
    publishStatus();
    Long deadline = pod.getSpec().getActiveDeadlineSeconds();
    if (deadline != null) {
      agent.scheduler().schedule(() -> agent.executor().execute(this::deadlineExceeded), deadline, TimeUnit.SECONDS);
    }
    if (!runInits()) {
      return;
    }
    for (Slot slot : slots) {
      synchronized (this) {
        if (ending()) {
          break;
        }
      }
      startContainer(slot);
    }
  }

  /**
   * The init containers, in order, as the kubelet runs them: each regular one to completion (restarted after a
   * failure with the crash-loop back-off unless the pod's restartPolicy is Never, which fails the pod), each
   * sidecar ({@code restartPolicy: Always}) started, its postStart done, and left running. False when the app
   * containers must not start.
   */
  private boolean runInits() {
    for (Slot init : inits) {
      synchronized (this) {
        if (ending() || initFailed) {
          return false;
        }
      }
      startContainer(init);
      if (init.kind == Kind.SIDECAR) {
        continue;
      }
      while (true) {
        synchronized (this) {
          if (ending() || initFailed) {
            return false;
          }
          if (init.exitCode != null && init.exitCode == 0) {
            break;
          }
        }
        try {
          Thread.sleep(INIT_POLL_MILLIS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
    }
    return true;
  }

  /** Every container of the pod: init containers and sidecars first. */
  private List<Slot> all() {
    List<Slot> all = new ArrayList<>(inits);
    all.addAll(slots);
    return all;
  }

  // Whether the containers are being stopped for good: no start and no restart any more.
  private boolean ending() {
    return terminating || stopped || deadlineExceeded;
  }

  /**
   * The volume mounts of a container that the node can give it: an emptyDir is a directory of the pod's own,
   * shared by its containers and kept across restarts; a hostPath is bound as given, read-only unless the mount
   * says {@code readOnly: false} in so many words. Other volume types are left out with a warning.
   */
  private List<Sandbox.Mount> mounts(Slot slot) throws IOException {
    List<Sandbox.Mount> mounts = new ArrayList<>();
    String name = slot.spec.getName();
    for (VolumeMount mount : slot.spec.getVolumeMounts() == null ? List.<VolumeMount>of()
        : slot.spec.getVolumeMounts()) {
      Volume volume = pod.getSpec().getVolumes() == null ? null : pod.getSpec().getVolumes().stream()
          .filter(v -> v.getName().equals(mount.getName())).findFirst().orElse(null);
      Path source;
      boolean readOnly = Boolean.TRUE.equals(mount.getReadOnly());
      if (volume != null && volume.getEmptyDir() != null) {
        source = volumeRoot().resolve(volume.getName());
      } else if (volume != null && volume.getHostPath() != null) {
        source = Path.of(volume.getHostPath().getPath());
        readOnly = !Boolean.FALSE.equals(mount.getReadOnly());
      } else {
        agent.timeline().add(key, name, Mark.WARNING, "volume " + mount.getName()
            + (volume == null ? " is not a volume of the pod" : " is neither emptyDir nor hostPath")
            + "; the embedded node leaves " + mount.getMountPath() + " unmounted");
        continue;
      }
      if (mount.getSubPath() != null && !mount.getSubPath().isEmpty()) {
        source = source.resolve(mount.getSubPath());
      }
      if (volume.getEmptyDir() != null) {
        Files.createDirectories(source);
        Sandbox.share(volumeRoot().resolve(volume.getName()));
      }
      mounts.add(new Sandbox.Mount(source, mount.getMountPath(), readOnly));
    }
    if (!mounts.isEmpty() && !agent.sandbox().isolated()) {
      agent.timeline().add(key, name, Mark.WARNING, "volumes need bubblewrap; without it they are not mounted");
      return List.of();
    }
    return mounts;
  }

  private synchronized Path volumeRoot() throws IOException {
    if (volumes == null) {
      volumes = Files.createDirectories(agent.volumeRoot().resolve(pod.getMetadata().getUid()));
    }
    return volumes;
  }

  /** The container's user and group inside it: its own securityContext's, else the pod's, else root. */
  private Sandbox.Identity identity(Container spec) {
    SecurityContext own = spec.getSecurityContext();
    PodSecurityContext pods = pod.getSpec().getSecurityContext();
    Long uid = own != null && own.getRunAsUser() != null ? own.getRunAsUser()
        : pods != null ? pods.getRunAsUser() : null;
    Long gid = own != null && own.getRunAsGroup() != null ? own.getRunAsGroup()
        : pods != null ? pods.getRunAsGroup() : null;
    return new Sandbox.Identity(uid == null ? 0 : uid, gid == null ? 0 : gid);
  }

  /** {@code resources.limits.memory} in bytes, if set. */
  private static Long memoryLimit(Container spec) {
    Quantity limit = spec.getResources() == null || spec.getResources().getLimits() == null ? null
        : spec.getResources().getLimits().get("memory");
    return limit == null ? null : Quantity.getAmountInBytes(limit).longValue();
  }

  /** The words of the container's exec hooks, expanded as the kubelet expands them when it runs them. */
  private static List<String> execWords(Container spec, Map<String, String> env) {
    List<String> words = new ArrayList<>();
    if (spec.getLifecycle() != null) {
      for (LifecycleHandler handler : new LifecycleHandler[] {spec.getLifecycle().getPostStart(),
          spec.getLifecycle().getPreStop()}) {
        if (handler != null && handler.getExec() != null && handler.getExec().getCommand() != null) {
          words.addAll(expand(handler.getExec().getCommand(), env));
        }
      }
    }
    return words;
  }

  private static List<String> expand(List<String> words, Map<String, String> env) {
    return words == null ? null : words.stream().map(w -> Environment.expand(w, env)).toList();
  }

  /**
   * A ConfigMap, Secret or key the environment needs is missing: the container waits in
   * {@code CreateContainerConfigError} and is tried again a little later, as the kubelet does on its next sync
   * of the pod, until it can start or the pod ends.
   */
  private void waitForConfig(Slot slot, String message) {
    boolean changed;
    synchronized (this) {
      changed = !message.equals(slot.configError);
      slot.configError = message;
    }
    if (changed) {
      event(slot.spec.getName(), true, "Failed", "Error: " + message);
      agent.timeline().add(key, slot.spec.getName(), Mark.WARNING, "cannot create the container: " + message);
      publishStatus();
    }
    agent.scheduler().schedule(() -> agent.executor().execute(() -> {
      synchronized (this) {
        if (ending()) {
          return;
        }
      }
      startContainer(slot);
    }), CONFIG_RETRY_MILLIS, TimeUnit.MILLISECONDS);
  }

  private void startContainer(Slot slot) {
    String name = slot.spec.getName();
    Image image = agent.image(slot.spec.getImage());
    // The image's environment comes first; the container's overrides it, as in a container runtime.
    Map<String, String> env = new LinkedHashMap<>();
    if (image != null) {
      for (String pair : image.env()) {
        int eq = pair.indexOf('=');
        env.put(eq < 0 ? pair : pair.substring(0, eq), eq < 0 ? "" : pair.substring(eq + 1));
      }
    }
    try {
      env.putAll(new Environment(agent.client(), pod, w -> agent.timeline().add(key, name, Mark.WARNING, w))
          .of(slot.spec));
    } catch (Environment.ConfigError e) {
      waitForConfig(slot, e.getMessage());
      return;
    }
    // The kubelet expands $(NAME) in the container's command and args, not in the image's.
    List<String> argv = Image.argv(image, expand(slot.spec.getCommand(), env), expand(slot.spec.getArgs(), env));
    if (argv.isEmpty()) {
      finish(slot, 128, "StartError", "container " + name + " has no command, and the embedded node knows no "
          + "entrypoint for " + slot.spec.getImage() + " (give its image archive, from docker save)");
      event(name, true, "Failed", "Error: " + slot.message);
      publishStatus();
      return;
    }
    synchronized (this) {
      slot.configError = null;
      slot.env.clear();
      slot.env.putAll(env);
    }
    try {
      String workingDir = slot.spec.getWorkingDir() != null && !slot.spec.getWorkingDir().isEmpty()
          ? slot.spec.getWorkingDir() : image == null ? null : image.workingDir();
      slot.process = agent.sandbox().startContainer(network, pod.getMetadata().getName(), argv, slot.env,
          workingDir, mounts(slot), image == null ? null : image.root(), execWords(slot.spec, env),
          memoryLimit(slot.spec), identity(slot.spec));
    } catch (IOException e) {
      finish(slot, 128, "StartError", e.getMessage());
      event(name, true, "Failed", "Error: " + e.getMessage());
      publishStatus();
      return;
    }
    slot.log = HookRunner.Output.drain(slot.process.process.getInputStream(), slot.printed);
    slot.startedAt = Instant.now();
    agent.timeline().add(key, name, Mark.CONTAINER_STARTED, argv.toString());
    slot.process.process.onExit().thenAcceptAsync(p -> exited(slot, p.exitValue()), agent.executor());
    event(name, false, "Created", "Created container: " + name);
    event(name, false, "Started", "Started container " + name);
    LifecycleHandler postStart = slot.spec.getLifecycle() == null ? null : slot.spec.getLifecycle().getPostStart();
    if (postStart != null) {
      agent.timeline().add(key, name, Mark.POST_START_STARTED, "");
      HookRunner.Result result = agent.hooks().run(postStart, slot.spec, network, slot.process, slot.env, slot.exited);
      agent.timeline().add(key, name, Mark.POST_START_ENDED, result.failed(), result.message(), result.output());
      if (result.failed()) {
        // The event carries no hook output, as the kubelet's, so that secrets do not leak into it.
        event(name, true, "FailedPostStartHook", "PostStartHook failed");
        killContainer(slot, podGrace(), "FailedPostStartHook");
        return;
      }
    }
    synchronized (this) {
      if (slot.exitCode == null) {
        slot.running = true;
        agent.timeline().add(key, name, Mark.RUNNING, "");
      }
    }
    publishStatus();
  }

  // A kubelet event about the pod, or about one of its containers.
  private void event(String container, boolean warning, String reason, String message) {
    boolean init = inits.stream().anyMatch(s -> s.spec.getName().equals(container));
    agent.events().record(pod, container == null ? null
        : (init ? "spec.initContainers{" : "spec.containers{") + container + "}", "kubelet", warning, reason,
        message);
  }

  private long podGrace() {
    Long grace = pod.getSpec().getTerminationGracePeriodSeconds();
    return grace == null ? DEFAULT_GRACE_SECONDS : Math.max(grace, 0);
  }

  private void exited(Slot slot, int code) {
    agent.timeline().add(key, slot.spec.getName(), Mark.EXITED, "exit code " + code);
    slot.process.reap();
    finish(slot, code, code == 0 ? "Completed" : "Error", null);
    boolean restart;
    boolean failsPod;
    synchronized (this) {
      restart = restarts(slot, code) && !ending();
      slot.backingOff = restart;
      failsPod = slot.kind == Kind.INIT && code != 0 && !restart && !ending();
      initFailed |= failsPod;
    }
    slot.exited.countDown();
    if (restart) {
      backOff(slot);
      return;
    }
    publishStatus();
    if (slot.kind != Kind.APP) {
      if (failsPod) {
        agent.executor().execute(this::stopSidecars);
      }
      return;
    }
    boolean allDone;
    synchronized (this) {
      allDone = slots.stream().allMatch(s -> s.exitCode != null && !s.backingOff) && !terminating;
      appsDone |= allDone;
    }
    if (allDone) {
      agent.executor().execute(this::stopSidecars);
    }
  }

  /**
   * The app containers have all ended, or an init container failed the pod: the sidecars are stopped as on
   * deletion, the last started first, and the pod's network goes.
   */
  private void stopSidecars() {
    List<Slot> sidecars = new ArrayList<>(inits.stream().filter(s -> s.kind == Kind.SIDECAR).toList());
    Collections.reverse(sidecars);
    for (Slot sidecar : sidecars) {
      killContainer(sidecar, podGrace(), "Killing");
    }
    publishStatus();
    closeNetwork();
  }

  // The API server defaults restartPolicy to Always; the embedded cluster does not default, so the node does.
  // An init container is restarted only after a failure, and never under Never; a sidecar always, until the app
  // containers are done.
  private boolean restarts(Slot slot, int code) {
    String policy = pod.getSpec().getRestartPolicy();
    return switch (slot.kind) {
      case SIDECAR -> !appsDone && !initFailed;
      case INIT -> code != 0 && !"Never".equals(policy);
      case APP -> policy == null || "Always".equals(policy) || (code != 0 && "OnFailure".equals(policy));
    };
  }

  /**
   * The kubelet's crash-loop back-off: the container waits in {@code CrashLoopBackOff}, starting at the node's
   * initial back-off and doubling per restart up to five minutes, then starts again in the same pod (its
   * emptyDir volumes and network kept).
   */
  private void backOff(Slot slot) {
    long delay = Math.min(agent.restartBackoff().toMillis() << Math.min(slot.restartCount, 16), MAX_BACKOFF_MILLIS);
    String pod = this.pod.getMetadata().getName() + "_" + this.pod.getMetadata().getNamespace() + "("
        + this.pod.getMetadata().getUid() + ")";
    synchronized (this) {
      slot.message = "back-off " + delay / 1000.0 + "s restarting failed container=" + slot.spec.getName()
          + " pod=" + pod;
    }
    publishStatus();
    event(slot.spec.getName(), true, "BackOff",
        "Back-off restarting failed container " + slot.spec.getName() + " in pod " + pod);
    agent.scheduler().schedule(() -> agent.executor().execute(() -> restart(slot)), delay, TimeUnit.MILLISECONDS);
  }

  private void restart(Slot slot) {
    synchronized (this) {
      if (ending() || !slot.backingOff) {
        return;
      }
      slot.lastState = terminated(slot);
      if (slot.log != null) {
        slot.log.awaitEnd();
      }
      slot.restartCount++;
      slot.backingOff = false;
      slot.exitCode = null;
      slot.reason = null;
      slot.message = null;
      slot.startedAt = null;
      slot.finishedAt = null;
      slot.process = null;
      slot.log = null;
      slot.exited = new CountDownLatch(1);
    }
    startContainer(slot);
  }

  /**
   * The kubelet's active deadline: a pod that has run longer than {@code activeDeadlineSeconds} is killed as on
   * deletion (preStop, SIGTERM, SIGKILL within its grace period) and ends {@code Failed} with reason
   * {@code DeadlineExceeded}; the pod object stays.
   */
  private void deadlineExceeded() {
    synchronized (this) {
      if (ending() || slots.stream().allMatch(s -> s.exitCode != null && !s.backingOff)) {
        return;
      }
      deadlineExceeded = true;
      all().forEach(s -> s.backingOff = false);
    }
    event(null, true, "DeadlineExceeded", DEADLINE_MESSAGE);
    killAll(podGrace(), "DeadlineExceeded");
    publishStatus();
    closeNetwork();
  }

  private synchronized void finish(Slot slot, int code, String reason, String message) {
    if (slot.exitCode == null) {
      slot.exitCode = code;
      slot.reason = reason;
      slot.message = message;
      slot.running = false;
      slot.finishedAt = Instant.now();
    }
  }

  /**
   * The kubelet's killContainer: the grace period counts from here; preStop runs first (abandoned when
   * the grace period is over), then SIGTERM with what is left of the grace period, at least
   * {@link #MINIMUM_STOP_SECONDS}, then SIGKILL. The preStop time is counted in whole seconds, as the
   * kubelet truncates it.
   */
  private void killContainer(Slot slot, long graceSeconds, String why) {
    String name = slot.spec.getName();
    if (slot.process == null || slot.exitCode != null) {
      return;
    }
    event(name, false, "Killing", "Stopping container " + name);
    long grace = graceSeconds;
    LifecycleHandler preStop = slot.spec.getLifecycle() == null ? null : slot.spec.getLifecycle().getPreStop();
    if (preStop != null && grace > 0) {
      agent.timeline().add(key, name, Mark.PRE_STOP_STARTED, why);
      long start = System.nanoTime();
      Future<?> hook = agent.executor().submit(() -> {
        HookRunner.Result result = agent.hooks().run(preStop, slot.spec, network, slot.process, slot.env, slot.exited);
        agent.timeline().add(key, name, Mark.PRE_STOP_ENDED, result.failed(), result.message(), result.output());
        if (result.failed()) {
          event(name, true, "FailedPreStopHook", "PreStopHook failed");
        }
      });
      try {
        hook.get(grace, TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        agent.timeline().add(key, name, Mark.PRE_STOP_ABANDONED, "grace period of " + grace + " s is over");
      } catch (ExecutionException e) {
        LOG.log(Level.WARNING, "preStop of " + key + "/" + name, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      grace -= TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
    }
    grace = Math.max(grace, MINIMUM_STOP_SECONDS);
    try {
      if (slot.exitCode == null) {
        agent.timeline().add(key, name, Mark.SIGTERM, "stop timeout " + grace + " s");
        slot.process.terminate();
      }
      if (!slot.exited.await(grace, TimeUnit.SECONDS)) {
        agent.timeline().add(key, name, Mark.SIGKILL, "");
        slot.process.kill();
      }
      slot.exited.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Stops every container: the app containers and a running init container in parallel, then the sidecars, the
   * last started first, as the kubelet stops a pod with sidecars; false when interrupted.
   */
  private boolean killAll(long graceSeconds, String why) {
    List<Future<?>> kills = new ArrayList<>();
    long start = System.nanoTime();
    for (Slot slot : all()) {
      if (slot.kind != Kind.SIDECAR) {
        kills.add(agent.executor().submit(() -> killContainer(slot, graceSeconds, why)));
      }
    }
    for (Future<?> kill : kills) {
      try {
        kill.get();
      } catch (ExecutionException e) {
        LOG.log(Level.WARNING, "stopping " + key, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    List<Slot> sidecars = new ArrayList<>(inits.stream().filter(s -> s.kind == Kind.SIDECAR).toList());
    Collections.reverse(sidecars);
    for (Slot sidecar : sidecars) {
      long left = graceSeconds - TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
      killContainer(sidecar, Math.max(left, 0), why);
    }
    return true;
  }

  /** The pod is being deleted: stop every container in parallel, then remove the pod from the API. */
  void terminate(long graceSeconds) {
    synchronized (this) {
      if (terminating || stopped) {
        return;
      }
      terminating = true;
      all().forEach(s -> s.backingOff = false);
    }
    agent.timeline().add(key, null, Mark.DELETE_OBSERVED, "grace period " + graceSeconds + " s");
    agent.executor().submit(() -> {
      if (!killAll(graceSeconds, "Killing")) {
        return;
      }
      for (Slot slot : all()) {
        finish(slot, 0, "Completed", null);
      }
      publishStatus();
      closeNetwork();
      try {
        agent.client().pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName())
            .withGracePeriod(0).delete();
      } catch (KubernetesClientException e) {
        if (!agent.closed()) {
          LOG.log(Level.WARNING, "cannot remove pod " + key, e);
        }
      }
    });
  }

  /** Kills everything at once (the pod was removed from the API, or the node is shutting down). */
  void stop() {
    synchronized (this) {
      stopped = true;
    }
    for (Slot slot : all()) {
      if (slot.process != null && slot.process.process.isAlive()) {
        agent.timeline().add(key, slot.spec.getName(), Mark.SIGKILL, "pod removed");
        slot.process.kill();
        slot.process.process.onExit().join();
      }
    }
    closeNetwork();
    Path dir;
    synchronized (this) {
      dir = volumes;
      volumes = null;
    }
    if (dir != null) {
      NodeAgent.deleteTree(dir);
    }
  }

  private synchronized void closeNetwork() {
    if (network != null) {
      network.close();
      network = null;
    }
  }

  /** Whether any process of this pod may still run. */
  boolean active() {
    return all().stream().anyMatch(s -> s.process != null && s.process.process.isAlive());
  }

  /** The container's output so far over all its runs (empty before it starts). */
  BoundedOutput.Tail log(String container) {
    return all().stream().filter(s -> s.spec.getName().equals(container)).findFirst()
        .map(s -> s.log == null ? s.printed.tail() : s.log.tail()).orElse(BoundedOutput.Tail.EMPTY);
  }

  private static ContainerState terminated(Slot slot) {
    return new ContainerStateBuilder().withNewTerminated().withExitCode(slot.exitCode).withReason(slot.reason)
        .withMessage(slot.message).withStartedAt(time(slot.startedAt)).withFinishedAt(time(slot.finishedAt))
        .endTerminated().build();
  }

  private synchronized PodStatus status() {
    List<ContainerStatus> initStatuses = new ArrayList<>();
    boolean initialized = true;
    for (Slot init : inits) {
      initStatuses.add(containerStatus(init, "PodInitializing"));
      initialized &= init.kind == Kind.SIDECAR ? init.running || init.exitCode != null
          : init.exitCode != null && init.exitCode == 0;
    }
    List<ContainerStatus> statuses = new ArrayList<>();
    boolean allTerminated = true;
    boolean anyRunning = false;
    boolean allReady = true;
    boolean allZero = true;
    for (Slot slot : slots) {
      statuses.add(containerStatus(slot, initialized ? "ContainerCreating" : "PodInitializing"));
      allTerminated &= slot.exitCode != null && !slot.backingOff;
      anyRunning |= slot.running || slot.backingOff;
      allReady &= slot.running;
      allZero &= slot.exitCode == null || slot.exitCode == 0;
    }
    String phase = deadlineExceeded || initFailed ? "Failed"
        : !initialized ? "Pending"
        : allTerminated ? (allZero ? "Succeeded" : "Failed") : anyRunning ? "Running" : "Pending";
    String ready = allReady && initialized ? "True" : "False";
    String now = time(startTime);
    return new PodStatusBuilder().withPhase(phase).withHostIP("127.0.0.1").withPodIP("127.0.0.1")
        .withReason(deadlineExceeded ? "DeadlineExceeded" : null).withMessage(deadlineExceeded ? DEADLINE_MESSAGE : null)
        .withStartTime(now)
        .withConditions(condition("PodScheduled", "True", now),
            condition("Initialized", initialized ? "True" : "False", now),
            condition("ContainersReady", ready, now), condition("Ready", ready, now))
        .withInitContainerStatuses(initStatuses).withContainerStatuses(statuses).build();
  }

  /** @param waiting why a container that has not started waits */
  private ContainerStatus containerStatus(Slot slot, String waiting) {
    ContainerState state;
    ContainerState last = slot.lastState;
    if (slot.backingOff) {
      state = new ContainerStateBuilder().withNewWaiting().withReason("CrashLoopBackOff").withMessage(slot.message)
          .endWaiting().build();
      last = terminated(slot);
    } else if (slot.exitCode != null) {
      state = terminated(slot);
    } else if (slot.running) {
      state = new ContainerStateBuilder().withNewRunning().withStartedAt(time(slot.startedAt)).endRunning().build();
    } else if (slot.configError != null) {
      state = new ContainerStateBuilder().withNewWaiting().withReason("CreateContainerConfigError")
          .withMessage(slot.configError).endWaiting().build();
    } else {
      state = new ContainerStateBuilder().withNewWaiting().withReason(waiting).endWaiting().build();
    }
    return new ContainerStatusBuilder().withName(slot.spec.getName()).withImage(slot.spec.getImage())
        .withImageID("").withContainerID(slot.process == null ? null : "hooklens://" + slot.process.process.pid())
        .withReady(slot.running).withStarted(slot.running).withRestartCount(slot.restartCount).withState(state)
        .withLastState(last).build();
  }

  private static PodCondition condition(String type, String status, String time) {
    PodCondition condition = new PodCondition();
    condition.setType(type);
    condition.setStatus(status);
    condition.setLastTransitionTime(time);
    return condition;
  }

  private static String time(Instant instant) {
    return instant == null ? null : instant.truncatedTo(ChronoUnit.SECONDS).toString();
  }

  // Built and sent under one lock, so that an older status never overwrites a newer one.
  private void publishStatus() {
    synchronized (statusLock) {
      // A JSON patch replaces the whole status; a merge patch would merge the mock's container lists.
      sendStatus(Serialization.asJson(List.of(Map.of("op", "add", "path", "/status", "value", status()))));
    }
  }

  private void sendStatus(String body) {
    try {
      agent.client().pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName())
          .subresource("status").patch(PatchContext.of(PatchType.JSON), body);
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404 && !agent.closed()) {
        LOG.log(Level.WARNING, "cannot write status of " + key, e);
      }
    }
  }
}
