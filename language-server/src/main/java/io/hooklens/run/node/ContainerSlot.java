package io.hooklens.run.node;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.LifecycleHandler;
import io.hooklens.run.kube.BoundedOutput;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * A container of a pod and what the node knows of it. Within one run its state only moves forward: waiting, then
 * starting (its process runs, its postStart has not returned), running, terminated; a restart goes through
 * {@code BACK_OFF} (at once the first time, then a while in {@code CrashLoopBackOff}) and waits again for the next
 * run, with the restart counted. Any other move is a fault of
 * the node and throws. It lives on its pod's loop and is never touched from another thread.
 */
final class ContainerSlot {
  /** What a container is to the pod: an app container, an init container run to completion, or a sidecar. */
  enum Kind { APP, INIT, SIDECAR }

  enum State { WAITING, STARTING, RUNNING, TERMINATED, BACK_OFF }

  private static final Map<State, Set<State>> MOVES = Map.of(
      State.WAITING, EnumSet.of(State.STARTING, State.TERMINATED),
      State.STARTING, EnumSet.of(State.RUNNING, State.TERMINATED),
      State.RUNNING, EnumSet.of(State.TERMINATED),
      State.TERMINATED, EnumSet.of(State.BACK_OFF),
      // Back to waiting for the next run, or left terminated when the pod ends first.
      State.BACK_OFF, EnumSet.of(State.WAITING, State.TERMINATED));

  /**
   * One run of the container: its process, what reads its output, the environment it and its hooks get; completed
   * on the pod's loop, {@code startReturned} once its start has returned (its postStart ended, and the container
   * killed if that failed) and {@code ended} once the node has taken in its exit.
   */
  /** @param outputFrom where this run's output begins in what the container printed over all its runs */
  record Run(Sandbox.ContainerProcess process, HandlerRunner.Output output, long outputFrom, Map<String, String> env,
      StopSignal stopSignal, CompletableFuture<Void> startReturned, CompletableFuture<Void> ended) {
    /** Completes with the exit code once the process and what it left are gone, off the pod's loop. */
    CompletableFuture<Integer> exit() {
      return process.gone();
    }
  }

  /** How a run ended, as {@code state.terminated} shows it. */
  record Termination(int exitCode, String reason, String message, Instant startedAt, Instant finishedAt) {}

  final Container spec;
  final Kind kind;
  /** What it printed, over all its runs. */
  final BoundedOutput printed = new BoundedOutput();
  private State state = State.WAITING;
  private Run run;
  private Instant startedAt;
  private Termination termination;
  private Termination last;
  private int restartCount;
  // Why the container cannot be created yet, while it waits with that reason (CreateContainerConfigError).
  private String configError;
  private String configReason;
  private String backOffMessage;
  // The kubelet's back-off entry for the container (flowcontrol.Backoff): the wait before a restart once one is
  // due, zero while there is none, and when it last grew.
  private long backOffMillis;
  private Instant backOffUpdated;
  // The kubelet's probe results for the current run: started once its startupProbe succeeded (at once without
  // one), ready while its readinessProbe succeeds (once started without one).
  private boolean probedStarted;
  private boolean probedReady;

  ContainerSlot(Container spec, Kind kind) {
    this.spec = spec;
    this.kind = kind;
  }

  static ContainerSlot init(Container spec) {
    return new ContainerSlot(spec, "Always".equals(spec.getRestartPolicy()) ? Kind.SIDECAR : Kind.INIT);
  }

  String name() {
    return spec.getName();
  }

  LifecycleHandler postStart() {
    return spec.getLifecycle() == null ? null : spec.getLifecycle().getPostStart();
  }

  LifecycleHandler preStop() {
    return spec.getLifecycle() == null ? null : spec.getLifecycle().getPreStop();
  }

  private void move(State to) {
    if (!MOVES.get(state).contains(to)) {
      throw new IllegalStateException("container " + name() + " cannot go from " + state + " to " + to);
    }
    state = to;
  }

  /** Waits for a ConfigMap, Secret or key, or a user it may run as; true when the reason is new. */
  boolean cannotCreate(String reason, String message) {
    if (state != State.WAITING) {
      throw new IllegalStateException("container " + name() + " is " + state + ", not waiting to be created");
    }
    boolean changed = !message.equals(configError) || !reason.equals(configReason);
    configError = message;
    configReason = reason;
    return changed;
  }

  void started(Run run) {
    move(State.STARTING);
    this.run = run;
    configError = null;
    startedAt = Instant.now();
  }

  /** Its postStart returned: the container runs; without probes it is started and ready at once. */
  void running() {
    move(State.RUNNING);
    probedStarted = spec.getStartupProbe() == null;
    probedReady = probedStarted && spec.getReadinessProbe() == null;
  }

  /** A startup probe reached its success threshold: readiness and liveness probes begin. */
  void probedStarted() {
    probedStarted = true;
    probedReady = spec.getReadinessProbe() == null;
  }

  /** A readiness probe reached its success or failure threshold; true when that changed the container. */
  boolean probedReady(boolean ready) {
    boolean changed = probedReady != ready;
    probedReady = ready;
    return changed;
  }

  /** {@code containerStatus.started}: running and past its startup probe. */
  boolean started() {
    return state == State.RUNNING && probedStarted;
  }

  /** {@code containerStatus.ready}: running and passing its readiness probe. */
  boolean ready() {
    return state == State.RUNNING && probedReady;
  }

  void terminated(int exitCode, String reason, String message) {
    move(State.TERMINATED);
    termination = new Termination(exitCode, reason, message, startedAt, Instant.now());
  }

  /** Ends the pod's hold on a container that is not yet terminated: the pod is done with it. */
  void endUnlessTerminated(int exitCode, String reason) {
    if (state != State.TERMINATED) {
      terminated(exitCode, reason, null);
    }
  }

  void backOff(String message) {
    move(State.BACK_OFF);
    backOffMessage = message;
  }

  /** The container restarts with no back-off: it shows how its run ended until it runs again. */
  void restartDue() {
    backOff(null);
  }

  /** Whether it waits in {@code CrashLoopBackOff}, rather than for a restart due at once. */
  boolean inCrashLoopBackOff() {
    return state == State.BACK_OFF && backOffMessage != null;
  }

  /** The pod ends while the container waits to restart: it stays as its last run left it. */
  void stopBackingOff() {
    if (state == State.BACK_OFF) {
      move(State.TERMINATED);
    }
  }

  /**
   * The wait before restarting after a run that ended at {@code finished}, as the kubelet's {@code doBackOff} asks
   * {@code IsInBackOffSince}: none while the container has no back-off entry or its entry has not grown for twice
   * the longest back-off.
   */
  long backOffMillis(Instant finished, long maxMillis) {
    return backOffMillis == 0 || expired(finished, maxMillis) ? 0 : backOffMillis;
  }

  /** The kubelet's {@code backOff.Next}: the first entry is the initial back-off, each next one doubles it. */
  void nextBackOff(long initialMillis, long maxMillis) {
    Instant now = Instant.now();
    backOffMillis = backOffMillis == 0 || expired(now, maxMillis) ? initialMillis
        : Math.min(backOffMillis * 2, maxMillis);
    backOffUpdated = now;
  }

  private boolean expired(Instant at, long maxMillis) {
    return at.toEpochMilli() - backOffUpdated.toEpochMilli() > 2 * maxMillis;
  }

  /** The container waits for its next run, which counts as a restart. */
  void restart() {
    move(State.WAITING);
    last = termination;
    termination = null;
    run = null;
    startedAt = null;
    backOffMessage = null;
    restartCount++;
  }

  State state() {
    return state;
  }

  /** Whether its process may still run: started and not yet seen to end. */
  boolean live() {
    return state == State.STARTING || state == State.RUNNING;
  }

  /**
   * Whether the containers after it may start: an init container once it has succeeded; any other once its start
   * has returned, or failed before it had a process (one that waits for its configuration does not hold the others).
   */
  boolean letsNextStart() {
    if (kind == Kind.INIT) {
      return state == State.TERMINATED && termination.exitCode() == 0;
    }
    return run != null ? run.startReturned().isDone() : state != State.WAITING || configError != null;
  }

  /** The current or last run, or null before the first one and between restarts. */
  Run run() {
    return run;
  }

  Instant startedAt() {
    return startedAt;
  }

  /** How the current run ended, or null while it has not. */
  Termination termination() {
    return termination;
  }

  /** How the run before the current one ended, or null before the first restart. */
  Termination last() {
    return last;
  }

  int restartCount() {
    return restartCount;
  }

  String configError() {
    return configError;
  }

  /** The waiting reason while {@link #configError()} is set. */
  String configReason() {
    return configReason;
  }

  String backOffMessage() {
    return backOffMessage;
  }
}
