package io.hooklens.run.node;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.LifecycleHandler;
import io.hooklens.run.node.Timeline.Mark;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A pod's lifecycle hooks, each run on the node's threads rather than the pod's loop, as the kubelet's handler
 * runner runs them. Each records its start and end on the timeline, and a failed one its event, on the thread that
 * saw it end: a hook cut off at the grace period may end after its pod is gone, and its end is still told.
 */
final class PodHooks {
  private static final Logger LOG = Logger.getLogger(PodHooks.class.getName());

  private final HandlerRunner runner;
  private final Executor threads;
  private final PodJournal journal;

  PodHooks(HandlerRunner runner, Executor threads, PodJournal journal) {
    this.runner = runner;
    this.threads = threads;
    this.journal = journal;
  }

  CompletableFuture<HandlerRunner.Result> postStart(ContainerSlot slot, ContainerSlot.Run run,
      Sandbox.PodNetwork network) {
    journal.mark(slot.name(), Mark.POST_START_STARTED, "");
    return run(slot.spec, slot.postStart(), run, network, Mark.POST_START_ENDED, ContainerKiller.FAILED_POST_START,
        "PostStartHook failed");
  }

  /** @param why what stops the container, for the timeline */
  CompletableFuture<HandlerRunner.Result> preStop(ContainerSlot slot, ContainerSlot.Run run, Sandbox.PodNetwork network,
      String why) {
    journal.mark(slot.name(), Mark.PRE_STOP_STARTED, why);
    return run(slot.spec, slot.preStop(), run, network, Mark.PRE_STOP_ENDED, "FailedPreStopHook", "PreStopHook failed");
  }

  // The event carries no hook output, as the kubelet's, so that secrets do not leak into it.
  private CompletableFuture<HandlerRunner.Result> run(Container spec, LifecycleHandler handler,
      ContainerSlot.Run run, Sandbox.PodNetwork network, Mark end, String reason, String message) {
    String name = spec.getName();
    return CompletableFuture.supplyAsync(() -> {
      HandlerRunner.Result result;
      try {
        result = runner.run(handler, spec, network, run.process(), run.env(), run.exit());
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "hook of container " + name, e);
        result = HandlerRunner.Result.failure("the node could not run the hook: " + e);
      }
      journal.mark(name, end, result.failed(), result.message(), result.output());
      if (result.failed()) {
        journal.event(name, true, reason, message);
      }
      return result;
    }, threads);
  }
}
