package io.hooklens.run.node;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.hooklens.core.model.Termination;
import io.hooklens.run.kube.BoundedOutput;
import io.hooklens.run.node.ContainerSlot.Kind;
import io.hooklens.run.node.ContainerSlot.State;
import io.hooklens.run.node.PodStatusWriter.Failure;
import io.hooklens.run.node.Timeline.Mark;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One pod on the node, as the kubelet's pod worker: starts its init containers and then its containers in order
 * (a postStart runs while its entrypoint runs, and the next container starts only when it returns), restarts them
 * as {@code restartPolicy} says, and stops them as {@code killContainer} does on deletion or at the active
 * deadline. All its state lives on the pod's {@link PodLoop}: whatever blocks (opening the network, hooks,
 * processes) runs elsewhere and reports back to the loop.
 */
final class PodWorker {
  // The kubelet's MaxContainerBackOff.
  private static final long MAX_BACKOFF_MILLIS = 300_000;
  /** How soon a container whose ConfigMap or Secret is missing is tried again: the kubelet's next pod sync. */
  private static final long CONFIG_RETRY_MILLIS = 1_000;

  private final NodeAgent agent;
  private final Pod pod;
  private final String key;
  private final PodLoop loop;
  private final PodJournal journal;
  private final PodStatusWriter status;
  private final PodVolumes volumes;
  private final ContainerLauncher launcher;
  private final PodHooks hooks;
  private final ContainerKiller killer;
  private final List<ContainerSlot> inits;
  private final List<ContainerSlot> apps;
  private final CompletableFuture<Void> gone = new CompletableFuture<>();
  private CompletableFuture<Sandbox.PodNetwork> opening;
  private Sandbox.PodNetwork network;
  private boolean terminating;
  private boolean stopped;
  private Failure failure = Failure.NONE;
  // Every app container has ended: sidecars are stopped now, and not restarted.
  private boolean appsDone;

  PodWorker(NodeAgent agent, Pod pod) {
    this.agent = agent;
    this.pod = pod;
    this.key = pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    this.loop = new PodLoop(key);
    this.journal = new PodJournal(agent.events(), agent.timeline(), pod, key);
    this.status = new PodStatusWriter(agent, pod);
    this.volumes = new PodVolumes(agent, pod);
    this.launcher = new ContainerLauncher(agent, pod, volumes);
    this.hooks = new PodHooks(agent.hooks(), agent.executor(), journal);
    this.killer = new ContainerKiller(loop, hooks, journal);
    List<Container> initSpecs = pod.getSpec().getInitContainers();
    this.inits = (initSpecs == null ? Stream.<Container>empty() : initSpecs.stream()).map(ContainerSlot::init)
        .toList();
    this.apps = pod.getSpec().getContainers().stream().map(c -> new ContainerSlot(c, Kind.APP)).toList();
  }

  String key() {
    return key;
  }

  /** Opens the pod's network, then starts its containers. */
  void start() {
    loop.execute(() -> {
      opening = CompletableFuture.supplyAsync(this::openNetwork, agent.executor());
      opening.whenCompleteAsync(this::networkOpened, loop);
    });
  }

  /** The pod is being deleted: stops every container, then removes the pod from the API. */
  void terminate(long graceSeconds) {
    loop.execute(() -> beginTermination(graceSeconds));
  }

  /**
   * Kills everything at once (the pod was removed from the API, or the node is shutting down); completes when its
   * processes are gone and its network and volumes released.
   */
  CompletableFuture<Void> stop() {
    loop.execute(this::halt);
    return gone;
  }

  /** The container's output so far over all its runs (empty before it starts). */
  BoundedOutput.Tail log(String container) {
    ContainerSlot slot = all().filter(s -> s.name().equals(container)).findFirst().orElse(null);
    if (slot == null) {
      return BoundedOutput.Tail.EMPTY;
    }
    HandlerRunner.Output current = loop.ask(() -> slot.run() == null ? null : slot.run().output(), null);
    return current == null ? slot.printed.tail() : current.tail();
  }

  private Sandbox.PodNetwork openNetwork() {
    try {
      return agent.sandbox().openNetwork(agent.nextPodIp());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void networkOpened(Sandbox.PodNetwork opened, Throwable error) {
    if (ending()) {
      if (opened != null) {
        opened.close();
      }
      return;
    }
    if (error != null) {
      Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
      String message = cause instanceof UncheckedIOException ? cause.getCause().getMessage() : cause.toString();
      all().forEach(slot -> slot.terminated(128, "StartError", message));
      publish();
      return;
    }
    network = opened;
    status.podIp(opened.ip());
    if (agent.isolated() && Sandbox.LOOPBACK.equals(opened.ip())) {
      journal.mark(null, Mark.WARNING, "the pod has no IP of its own (the node lacks iproute2's ip command): "
          + "lifecycle requests go to 127.0.0.1, where a cluster would send them to the pod IP");
    }
    publish();
    Long deadline = pod.getSpec().getActiveDeadlineSeconds();
    if (deadline != null) {
      loop.schedule(this::deadlineExceeded, deadline, TimeUnit.SECONDS);
    }
    advance();
  }

  /** Every container of the pod: init containers and sidecars first, in the order they start. */
  private Stream<ContainerSlot> all() {
    return Stream.concat(inits.stream(), apps.stream());
  }

  // Whether the containers are being stopped for good: no start and no restart any more.
  private boolean ending() {
    return terminating || stopped || failure == Failure.DEADLINE_EXCEEDED;
  }

  /**
   * The kubelet's SyncPod: starts, in order, each container that waits, as far as the ones before it let it (an
   * init container must have succeeded, another must have returned from its postStart).
   */
  private void advance() {
    if (ending() || failure == Failure.INIT_FAILED || network == null) {
      return;
    }
    for (ContainerSlot slot : all().toList()) {
      if (slot.state() == State.WAITING && slot.configError() == null) {
        launch(slot);
      }
      if (!slot.letsNextStart()) {
        return;
      }
    }
  }

  private void launch(ContainerSlot slot) {
    String name = slot.name();
    ContainerLauncher.Outcome outcome = launcher.launch(slot.spec, network, slot.printed,
        warning -> journal.mark(name, Mark.WARNING, warning));
    if (outcome instanceof ContainerLauncher.CannotCreate refused) {
      waitForConfig(slot, refused.reason(), refused.message());
    } else if (outcome instanceof ContainerLauncher.Failed failed) {
      slot.terminated(128, "StartError", failed.message());
      journal.event(name, true, "Failed", "Error: " + failed.message());
      publish();
    } else if (outcome instanceof ContainerLauncher.Started started) {
      started(slot, started);
    }
  }

  /**
   * A ConfigMap, Secret or key the environment needs is missing, or its user is refused: the container waits with
   * {@code reason} ({@code CreateContainerConfigError}, {@code CreateContainerError}) and is tried again a little
   * later, as the kubelet does on its next sync of the pod, until it can start or the pod ends.
   */
  private void waitForConfig(ContainerSlot slot, String reason, String message) {
    if (slot.cannotCreate(reason, message)) {
      journal.event(slot.name(), true, "Failed", "Error: " + message);
      journal.mark(slot.name(), Mark.WARNING, "cannot create the container: " + message);
      publish();
    }
    loop.schedule(() -> {
      if (!ending() && slot.state() == State.WAITING) {
        launch(slot);
        advance();
      }
    }, CONFIG_RETRY_MILLIS, TimeUnit.MILLISECONDS);
  }

  private void started(ContainerSlot slot, ContainerLauncher.Started started) {
    String name = slot.name();
    ContainerSlot.Run run = started.run();
    slot.started(run);
    journal.mark(name, Mark.CONTAINER_STARTED, started.argv().toString());
    int number = slot.restartCount();
    run.exit().thenAcceptAsync(code -> exited(slot, run, number, code), loop);
    journal.event(name, false, "Created", "Created container: " + name);
    journal.event(name, false, "Started", "Started container " + name);
    if (slot.postStart() == null) {
      run.startReturned().complete(null);
      running(slot);
      return;
    }
    hooks.postStart(slot, run, network).thenAcceptAsync(result -> {
      if (result.failed()) {
        killer.kill(slot, network, podGrace(), ContainerKiller.FAILED_POST_START)
            .thenRunAsync(() -> run.startReturned().complete(null), loop);
        return;
      }
      run.startReturned().complete(null);
      if (slot.state() == State.STARTING) {
        running(slot);
        advance();
      }
    }, loop);
  }

  private void running(ContainerSlot slot) {
    slot.running();
    journal.mark(slot.name(), Mark.RUNNING, "");
    publish();
    Container spec = slot.spec;
    if (spec.getStartupProbe() != null || spec.getReadinessProbe() != null || spec.getLivenessProbe() != null) {
      new Prober(slot, agent.hooks(), agent.sockets(), network, loop, agent.executor(), journal, this::publish,
          () -> terminating, podGrace(), (grace, message) -> {
            if (!ending()) {
              journal.mark(slot.name(), Mark.PROBE_KILL, true, message, BoundedOutput.Tail.EMPTY);
              killer.kill(slot, network, grace, "Unhealthy", message);
            }
          }).start();
    }
  }

  /** @param number the run's restartCount */
  private void exited(ContainerSlot slot, ContainerSlot.Run run, int number, int code) {
    journal.mark(slot.name(), Mark.EXITED, "exit code " + code);
    // Reports show what each run printed; the pipe's last bytes come shortly after the exit, maybe after the next
    // run has started, so the mark names its run.
    run.output().finished().copy().completeOnTimeout(null, HandlerRunner.Output.END_MILLIS, TimeUnit.MILLISECONDS)
        .thenRun(() -> journal.mark(slot.name(), Mark.OUTPUT, false, String.valueOf(number),
            slot.printed.since(run.outputFrom())));
    // A container the pod has already given up on (it outlived SIGKILL's wait) keeps the end it was given.
    if (slot.live()) {
      slot.terminated(code, code == 0 ? "Completed" : "Error", null);
    }
    run.ended().complete(null);
    // As in the kubelet, what follows a run's end is decided, and shown, once its start (postStart included) has
    // returned: a pod whose container restarts is never shown as ended.
    run.startReturned().thenRunAsync(() -> afterRun(slot, code), loop);
  }

  /** Restarts the container, or fails the pod, or stops the sidecars once the app is done; then goes on. */
  private void afterRun(ContainerSlot slot, int code) {
    if (ending()) {
      publish();
      return;
    }
    if (restarts(slot, code)) {
      backOff(slot);
      return;
    }
    boolean failsPod = slot.kind == Kind.INIT && code != 0;
    if (failsPod) {
      failure = Failure.INIT_FAILED;
    }
    publish();
    boolean appsEnded = slot.kind == Kind.APP && apps.stream().allMatch(s -> s.state() == State.TERMINATED);
    appsDone |= appsEnded;
    if (failsPod || appsEnded) {
      stopSidecars();
    }
    advance();
  }

  // The API server defaults restartPolicy to Always; the embedded cluster does not default, so the node does.
  // An init container is restarted only after a failure, and never under Never; a sidecar always, until the app
  // containers are done.
  private boolean restarts(ContainerSlot slot, int code) {
    String policy = pod.getSpec().getRestartPolicy();
    return switch (slot.kind) {
      case SIDECAR -> !appsDone && failure != Failure.INIT_FAILED;
      case INIT -> code != 0 && !"Never".equals(policy);
      case APP -> policy == null || "Always".equals(policy) || (code != 0 && "OnFailure".equals(policy));
    };
  }

  /**
   * The kubelet's crash-loop back-off ({@code doBackOff} in kuberuntime_manager.go): the first restart comes at
   * once; after each later exit the container waits in {@code CrashLoopBackOff} from the node's initial back-off,
   * doubling up to five minutes, counted from its exit. It starts again in the same pod (its emptyDir volumes and
   * network kept) once what its last run printed has been read.
   */
  private void backOff(ContainerSlot slot) {
    Instant finished = slot.termination().finishedAt();
    long wait = slot.backOffMillis(finished, MAX_BACKOFF_MILLIS);
    String name = slot.name();
    String who = pod.getMetadata().getName() + "_" + pod.getMetadata().getNamespace() + "("
        + pod.getMetadata().getUid() + ")";
    if (wait == 0) {
      slot.restartDue();
    } else {
      slot.backOff("back-off " + goDuration(wait) + " restarting failed container=" + name + " pod=" + who);
    }
    publish();
    if (wait > 0) {
      journal.event(name, true, "BackOff", "Back-off restarting failed container " + name + " in pod " + who);
    }
    long left = Math.max(0, wait - Duration.between(finished, Instant.now()).toMillis());
    CompletableFuture<Void> printed = slot.run().output().finished();
    loop.schedule(() -> loop.within(printed, HandlerRunner.Output.END_MILLIS, TimeUnit.MILLISECONDS)
        .thenRunAsync(() -> {
          if (!ending() && slot.state() == State.BACK_OFF) {
            slot.nextBackOff(agent.restartBackoff().toMillis(), MAX_BACKOFF_MILLIS);
            slot.restart();
            advance();
          }
        }, loop), left, TimeUnit.MILLISECONDS);
  }

  /** A wait as Go prints a {@code time.Duration}, as the kubelet's messages show it: 200ms, 10s, 1m20s, 5m0s. */
  static String goDuration(long millis) {
    if (millis < 1000) {
      return millis + "ms";
    }
    long minutes = millis / 60_000;
    String seconds = BigDecimal.valueOf(millis % 60_000, 3).stripTrailingZeros().toPlainString();
    return (minutes > 0 ? minutes + "m" : "") + seconds + "s";
  }

  /**
   * The kubelet's active deadline: a pod that has run longer than {@code activeDeadlineSeconds} is killed as on
   * deletion (preStop, SIGTERM, SIGKILL within its grace period) and ends {@code Failed} with reason
   * {@code DeadlineExceeded}; the pod object stays.
   */
  private void deadlineExceeded() {
    if (ending() || apps.stream().allMatch(s -> s.state() == State.TERMINATED)) {
      return;
    }
    failure = Failure.DEADLINE_EXCEEDED;
    all().forEach(ContainerSlot::stopBackingOff);
    journal.event(null, true, "DeadlineExceeded", PodStatusWriter.DEADLINE_MESSAGE);
    killAll(podGrace(), "DeadlineExceeded").thenRunAsync(() -> {
      publish();
      closeNetwork();
    }, loop);
  }

  private void beginTermination(long graceSeconds) {
    if (terminating || stopped) {
      return;
    }
    terminating = true;
    all().forEach(ContainerSlot::stopBackingOff);
    journal.mark(null, Mark.DELETE_OBSERVED, "grace period " + graceSeconds + " s");
    killAll(graceSeconds, "Killing").thenRunAsync(() -> {
      all().forEach(slot -> slot.endUnlessTerminated(0, "Completed"));
      publish();
      closeNetwork();
      status.remove();
    }, loop);
  }

  /**
   * Stops every container: the app containers and a running init container in parallel, then the sidecars, the
   * last started first, with what is left of the grace period, as the kubelet stops a pod with sidecars.
   */
  private CompletableFuture<Void> killAll(long graceSeconds, String why) {
    long start = System.nanoTime();
    CompletableFuture<Void> done = CompletableFuture.allOf(all().filter(s -> s.kind != Kind.SIDECAR)
        .map(s -> killer.kill(s, network, graceSeconds, why)).toArray(CompletableFuture[]::new));
    for (ContainerSlot sidecar : sidecarsLastFirst()) {
      done = done.thenComposeAsync(v -> killer.kill(sidecar, network,
          Math.max(graceSeconds - TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start), 0), why), loop);
    }
    return done;
  }

  /**
   * The app containers have all ended, or an init container failed the pod: the sidecars are stopped as on
   * deletion, the last started first, and the pod's network goes.
   */
  private void stopSidecars() {
    CompletableFuture<Void> done = CompletableFuture.completedFuture(null);
    for (ContainerSlot sidecar : sidecarsLastFirst()) {
      done = done.thenComposeAsync(v -> killer.kill(sidecar, network, podGrace(), "Killing"), loop);
    }
    done.thenRunAsync(() -> {
      publish();
      closeNetwork();
    }, loop);
  }

  private List<ContainerSlot> sidecarsLastFirst() {
    List<ContainerSlot> sidecars = new ArrayList<>(inits.stream().filter(s -> s.kind == Kind.SIDECAR).toList());
    Collections.reverse(sidecars);
    return sidecars;
  }

  /** Kills what still runs, then releases the network and the volumes and closes the loop. */
  private void halt() {
    if (stopped) {
      return;
    }
    stopped = true;
    List<CompletableFuture<?>> exits = new ArrayList<>();
    // Not yet gone rather than alive: a main process that has exited may have left a process group to kill.
    all().filter(slot -> slot.run() != null && !slot.run().exit().isDone()).forEach(slot -> {
      journal.mark(slot.name(), Mark.SIGKILL, "pod removed");
      slot.run().process().kill();
      exits.add(slot.run().exit());
    });
    // A network still being opened is closed too, once it is there.
    exits.add(opening == null ? CompletableFuture.completedFuture(null) : opening.exceptionally(e -> null));
    CompletableFuture.allOf(exits.toArray(CompletableFuture[]::new)).whenCompleteAsync((v, e) -> {
      if (opening != null) {
        opening.thenAccept(Sandbox.PodNetwork::close);
      }
      network = null;
      volumes.delete();
      loop.close();
      this.gone.complete(null);
    }, loop);
  }

  private void closeNetwork() {
    if (network != null) {
      network.close();
      network = null;
    }
  }

  private long podGrace() {
    Long grace = pod.getSpec().getTerminationGracePeriodSeconds();
    return grace == null ? Termination.DEFAULT_GRACE_SECONDS : Math.max(grace, 0);
  }

  private void publish() {
    status.write(inits, apps, failure);
  }
}
