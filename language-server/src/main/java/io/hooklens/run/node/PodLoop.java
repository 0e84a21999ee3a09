package io.hooklens.run.node;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The one thread a pod's state lives on. Its tasks and timers run one at a time, in order, so that the pod's
 * worker and containers need no lock; what blocks (hooks, processes) runs elsewhere and comes back as a task.
 * Once closed it drops what it is given: the pod is gone.
 */
final class PodLoop implements Executor {
  private static final Logger LOG = Logger.getLogger(PodLoop.class.getName());

  private final String pod;
  private final ScheduledThreadPoolExecutor thread;
  private volatile Thread owner;

  PodLoop(String pod) {
    this.pod = pod;
    thread = new ScheduledThreadPoolExecutor(1, runnable -> {
      Thread t = new Thread(runnable, "hooklens-pod " + pod);
      t.setDaemon(true);
      owner = t;
      return t;
    });
    thread.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    thread.setRemoveOnCancelPolicy(true);
  }

  @Override
  public void execute(Runnable task) {
    schedule(task, 0, TimeUnit.MILLISECONDS);
  }

  /** Runs {@code task} on the loop after the delay, unless the loop is closed by then. */
  void schedule(Runnable task, long delay, TimeUnit unit) {
    timer(task, delay, unit);
  }

  private ScheduledFuture<?> timer(Runnable task, long delay, TimeUnit unit) {
    try {
      return thread.schedule(() -> {
        try {
          task.run();
        } catch (RuntimeException | Error e) {
          // A scheduled task's failure would otherwise vanish in its future.
          LOG.log(Level.SEVERE, "pod " + pod, e);
        }
      }, delay, unit);
    } catch (RejectedExecutionException e) {
      return null;
    }
  }

  /**
   * Completes with true when {@code stage} completes within the time, else with false at the deadline, on the
   * loop's timer; chain on it with the loop as executor.
   */
  CompletableFuture<Boolean> within(CompletionStage<?> stage, long amount, TimeUnit unit) {
    CompletableFuture<Boolean> inTime = new CompletableFuture<>();
    ScheduledFuture<?> deadline = timer(() -> inTime.complete(false), amount, unit);
    stage.whenComplete((value, error) -> inTime.complete(true));
    if (deadline != null) {
      inTime.whenComplete((value, error) -> deadline.cancel(false));
    }
    return inTime;
  }

  /** Asks the loop from another thread and waits for the answer; {@code closed} when the loop is closed. */
  <T> T ask(Supplier<T> question, T closed) {
    if (inLoop()) {
      return question.get();
    }
    try {
      return thread.submit(question::get).get();
    } catch (RejectedExecutionException e) {
      return closed;
    } catch (ExecutionException e) {
      throw new IllegalStateException("pod " + pod, e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return closed;
    }
  }

  boolean inLoop() {
    return Thread.currentThread() == owner;
  }

  /** Runs what is due and then nothing more; timers not yet due are dropped. */
  void close() {
    thread.shutdown();
  }
}
