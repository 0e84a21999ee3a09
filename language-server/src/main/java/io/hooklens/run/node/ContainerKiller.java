package io.hooklens.run.node;

import io.hooklens.core.model.Termination;
import io.hooklens.run.node.Timeline.Mark;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The kubelet's {@code killContainer}, on a pod's loop: the grace period counts from the call; preStop runs first
 * (abandoned when the grace period is over), then the stop signal (SIGTERM unless the image names another) with
 * what is left of the grace period, at least {@link Termination#MINIMUM_AFTER_SIGTERM_SECONDS}, then SIGKILL. The
 * preStop time is counted in whole seconds, as the kubelet truncates it. Nothing waits on the loop: each step is a timer or a future that brings the next one back to it.
 */
final class ContainerKiller {
  /** Why a container whose postStart failed is stopped: its event's reason and the Killing event's message. */
  static final String FAILED_POST_START = "FailedPostStartHook";
  // A killed process is gone at once; this only bounds the wait should its end never be seen.
  private static final long AFTER_SIGKILL_SECONDS = 10;

  private final PodLoop loop;
  private final PodHooks hooks;
  private final PodJournal journal;

  ContainerKiller(PodLoop loop, PodHooks hooks, PodJournal journal) {
    this.loop = loop;
    this.hooks = hooks;
    this.journal = journal;
  }

  /**
   * Stops the container's current run; completes on the loop once the node has seen it end (at once when it is not
   * running).
   *
   * @param why what stops it, for the timeline
   */
  CompletableFuture<Void> kill(ContainerSlot slot, Sandbox.PodNetwork network, long graceSeconds, String why) {
    // The kubelet's killContainer names a failed postStart as the event's message, and any other stop by default.
    return kill(slot, network, graceSeconds, why,
        FAILED_POST_START.equals(why) ? why : "Stopping container " + slot.name());
  }

  /** @param message the Killing event's message, as the kubelet's caller gives it (a failed probe's) */
  CompletableFuture<Void> kill(ContainerSlot slot, Sandbox.PodNetwork network, long graceSeconds, String why,
      String message) {
    if (!slot.live()) {
      return CompletableFuture.completedFuture(null);
    }
    ContainerSlot.Run run = slot.run();
    String name = slot.name();
    journal.event(name, false, "Killing", message);
    if (slot.preStop() == null || graceSeconds <= 0) {
      return signal(name, run, graceSeconds);
    }
    long start = System.nanoTime();
    return loop.within(hooks.preStop(slot, run, network, why), graceSeconds, TimeUnit.SECONDS)
        .thenComposeAsync(inTime -> {
          if (!inTime) {
            journal.mark(name, Mark.PRE_STOP_ABANDONED, "grace period of " + graceSeconds + " s is over");
          }
          return signal(name, run, graceSeconds - TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start));
        }, loop);
  }

  private CompletableFuture<Void> signal(String name, ContainerSlot.Run run, long graceLeft) {
    long grace = Termination.stopTimeout(graceLeft);
    if (!run.ended().isDone()) {
      journal.mark(name, Mark.STOP_SIGNAL, run.stopSignal().name() + ", stop timeout " + grace + " s");
      run.process().terminate(run.stopSignal());
    }
    return loop.within(run.ended(), grace, TimeUnit.SECONDS).thenComposeAsync(inTime -> {
      if (inTime) {
        return CompletableFuture.<Void>completedFuture(null);
      }
      journal.mark(name, Mark.SIGKILL, "");
      run.process().kill();
      return loop.within(run.ended(), AFTER_SIGKILL_SECONDS, TimeUnit.SECONDS).thenApply(ended -> (Void) null);
    }, loop);
  }
}
