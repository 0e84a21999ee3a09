package io.hooklens.run.node;

import io.fabric8.kubernetes.api.model.LifecycleHandler;
import io.fabric8.kubernetes.api.model.LifecycleHandlerBuilder;
import io.fabric8.kubernetes.api.model.Probe;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The kubelet's probe workers for one run of a container ({@code pkg/kubelet/prober/worker.go}): each probe ticks
 * every {@code periodSeconds} once {@code initialDelaySeconds} have passed since the container ran; only the startup
 * probe runs until it succeeds, then readiness and liveness. A result counts once it repeats
 * {@code successThreshold} or {@code failureThreshold} times in a row. A failed liveness or startup probe puts its
 * worker on hold and asks for the container to be killed. exec probes run in the container, httpGet, tcpSocket and
 * grpc ones from its network namespace to the pod's IP ({@link SocketProbes}). Probes run on the node's threads;
 * what they decide comes back to the pod's loop.
 */
final class Prober {
  /** Which probe, as the kubelet's events name it. */
  enum Kind {
    STARTUP("Startup"), READINESS("Readiness"), LIVENESS("Liveness");

    final String event;

    Kind(String event) {
      this.event = event;
    }
  }

  private final ContainerSlot slot;
  private final ContainerSlot.Run run;
  private final HandlerRunner runner;
  private final SocketProbes sockets;
  private final Sandbox.PodNetwork network;
  private final PodLoop loop;
  private final Executor threads;
  private final PodJournal journal;
  private final Runnable changed;
  private final BooleanSupplier deleting;
  private final long podGrace;
  private final Kill kill;

  /** What is done, on the loop, with a container whose liveness or startup probe failed. */
  interface Kill {
    /** @param message the Killing event's message, as the kubelet words it */
    void kill(long graceSeconds, String message);
  }

  /**
   * @param changed told on the loop when the container's started or ready state changed
   * @param deleting whether the pod is being deleted: liveness and startup probes stop then, as the kubelet's do
   * @param podGrace the grace period of a kill for a failed probe that sets none of its own
   */
  Prober(ContainerSlot slot, HandlerRunner runner, SocketProbes sockets, Sandbox.PodNetwork network, PodLoop loop,
      Executor threads, PodJournal journal, Runnable changed, BooleanSupplier deleting, long podGrace, Kill kill) {
    this.slot = slot;
    this.run = slot.run();
    this.runner = runner;
    this.sockets = sockets;
    this.network = network;
    this.loop = loop;
    this.threads = threads;
    this.journal = journal;
    this.changed = changed;
    this.deleting = deleting;
    this.podGrace = podGrace;
    this.kill = kill;
  }

  /** Starts the workers of the run's probes; they stop with the run. */
  void start() {
    worker(Kind.STARTUP, slot.spec.getStartupProbe());
    worker(Kind.READINESS, slot.spec.getReadinessProbe());
    worker(Kind.LIVENESS, slot.spec.getLivenessProbe());
  }

  private void worker(Kind kind, Probe probe) {
    if (probe == null) {
      return;
    }
    long period = seconds(probe.getPeriodSeconds(), 10);
    long delay = seconds(probe.getInitialDelaySeconds(), 0);
    int failures = (int) seconds(probe.getFailureThreshold(), 3);
    int successes = (int) seconds(probe.getSuccessThreshold(), 1);
    new Worker(kind, probe, failures, successes, period).tick(Math.max(delay, 0) * 1000);
  }

  private static long seconds(Integer value, long otherwise) {
    return value == null || value <= 0 ? otherwise : value;
  }

  /** One probe's worker: its last result and how many times in a row it came. */
  private final class Worker {
    final Kind kind;
    final Probe probe;
    final int failureThreshold;
    final int successThreshold;
    final long periodMillis;
    Boolean last;
    int runLength;

    Worker(Kind kind, Probe probe, int failureThreshold, int successThreshold, long periodSeconds) {
      this.kind = kind;
      this.probe = probe;
      this.failureThreshold = failureThreshold;
      this.successThreshold = successThreshold;
      this.periodMillis = periodSeconds * 1000;
    }

    void tick(long afterMillis) {
      loop.schedule(this::probe, afterMillis, TimeUnit.MILLISECONDS);
    }

    // On the loop: whether this worker probes now (the kubelet's doProbe), then the probe on the node's threads.
    private void probe() {
      if (run.exit().isDone() || slot.run() != run) {
        return;
      }
      boolean started = slot.started();
      boolean due = kind == Kind.STARTUP ? !started : started;
      if (deleting.getAsBoolean() && kind != Kind.READINESS) {
        return;
      }
      if (!due || slot.state() != ContainerSlot.State.RUNNING) {
        tick(periodMillis);
        return;
      }
      CompletableFuture.supplyAsync(this::runProbe, threads).thenAcceptAsync(this::result, loop);
    }

    // The kubelet's runProbe (pkg/kubelet/prober/prober.go): one action, bounded by timeoutSeconds.
    private HandlerRunner.Result runProbe() {
      long timeout = seconds(probe.getTimeoutSeconds(), 1);
      CompletableFuture<Void> over = new CompletableFuture<>();
      over.completeOnTimeout(null, timeout, TimeUnit.SECONDS);
      CompletableFuture<Object> stopped = CompletableFuture.anyOf(run.exit(), over);
      try {
        if (probe.getTcpSocket() != null) {
          return sockets.tcp(probe.getTcpSocket(), slot.spec, network, over, stopped);
        }
        if (probe.getGrpc() != null) {
          return sockets.grpc(probe.getGrpc(), network, timeout, over, stopped);
        }
      } catch (IOException e) {
        return HandlerRunner.Result.failure("cannot start probe: " + e.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return HandlerRunner.Result.failure("interrupted");
      }
      LifecycleHandler handler = new LifecycleHandlerBuilder().withExec(probe.getExec())
          .withHttpGet(probe.getHttpGet()).build();
      HandlerRunner.Result result = runner.run(handler, slot.spec, network, run.process(), run.env(), stopped);
      if (over.isDone() && result.failed()) {
        return HandlerRunner.Result.failure("command timed out after " + timeout + "s");
      }
      if (!result.failed() && handler.getHttpGet() != null) {
        return httpStatus(result);
      }
      return result;
    }

    // A probe's httpGet succeeds on 200 to 399, unlike a lifecycle hook's, which takes any answer.
    private HandlerRunner.Result httpStatus(HandlerRunner.Result result) {
      String[] status = result.output().text().strip().split(" ", 3);
      try {
        int code = Integer.parseInt(status.length > 1 ? status[1] : "");
        return code >= 200 && code < 400 ? result
            : HandlerRunner.Result.failure("HTTP probe failed with statuscode: " + code, result.output());
      } catch (NumberFormatException e) {
        return HandlerRunner.Result.failure("HTTP probe got no status line", result.output());
      }
    }

    // A probe's own terminationGracePeriodSeconds, for liveness and startup kills, else the pod's.
    private long grace() {
      Long own = probe.getTerminationGracePeriodSeconds();
      return own != null && own >= 0 ? own : podGrace;
    }

    // On the loop: the kubelet's thresholds, then what the result changes.
    private void result(HandlerRunner.Result result) {
      if (run.exit().isDone() || slot.run() != run) {
        return;
      }
      boolean ok = !result.failed();
      if (!ok) {
        String message = kind.event + " probe failed: " + result.message();
        journal.event(slot.name(), true, "Unhealthy", message);
        journal.mark(slot.name(), Timeline.Mark.PROBE_FAILED, true, message, result.output());
      }
      runLength = last != null && last == ok ? runLength + 1 : 1;
      last = ok;
      if (ok ? runLength < successThreshold : runLength < failureThreshold) {
        tick(periodMillis);
        return;
      }
      switch (kind) {
        case STARTUP -> {
          if (ok) {
            slot.probedStarted();
            if (slot.ready()) {
              journal.mark(slot.name(), Timeline.Mark.READY, "");
            }
            changed.run();
            tick(periodMillis);
          } else {
            kill.kill(grace(), "Container " + slot.name() + " failed startup probe, will be restarted");
          }
        }
        case READINESS -> {
          if (slot.probedReady(ok)) {
            journal.mark(slot.name(), ok ? Timeline.Mark.READY : Timeline.Mark.NOT_READY, "");
            changed.run();
          }
          tick(periodMillis);
        }
        case LIVENESS -> {
          if (ok) {
            tick(periodMillis);
          } else {
            kill.kill(grace(), "Container " + slot.name() + " failed liveness probe, will be restarted");
          }
        }
      }
    }
  }
}
