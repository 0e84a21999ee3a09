package io.hooklens.run.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.LifecycleHandler;
import io.fabric8.kubernetes.api.model.LifecycleHandlerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.hooklens.Timing;
import io.hooklens.run.RunFixture;
import io.hooklens.run.node.Timeline.Entry;
import io.hooklens.run.node.Timeline.Mark;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * Pods run on a fixture's node as a user runs them: created through the fabric8 client, deleted, and read back
 * as a watcher saw them, with their events and the node's timeline marks (signal times).
 */
final class PodRuns {
  // As PID 1 in its sandbox the shell gets SIGTERM only through a trap.
  static final List<String> STOPS_ON_TERM = List.of("sh", "-c", "trap 'exit 0' TERM; while :; do sleep 0.05; done");
  static final List<String> IGNORES_TERM = List.of("sh", "-c", "trap '' TERM; while :; do sleep 0.05; done");

  final RunFixture run;

  PodRuns(RunFixture run) {
    this.run = run;
  }

  static LifecycleHandler exec(String... command) {
    return new LifecycleHandlerBuilder().withNewExec().withCommand(command).endExec().build();
  }

  static LifecycleHandler sleep(long seconds) {
    return new LifecycleHandlerBuilder().withNewSleep().withSeconds(seconds).endSleep().build();
  }

  static Pod pod(String name, long grace, List<String> command, LifecycleHandler postStart,
      LifecycleHandler preStop) {
    // Never: these pods show one run of a container; restarts have tests of their own.
    return new PodBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec()
        .withTerminationGracePeriodSeconds(grace).withRestartPolicy("Never")
        .addNewContainer().withName("app").withImage("debian:12").withCommand(command)
        .addNewEnv().withName("GREETING").withValue("hello").endEnv()
        .withNewLifecycle().withPostStart(postStart).withPreStop(preStop).endLifecycle()
        .endContainer().endSpec().build();
  }

  /** Every state of a pod as a watching user sees it, until it is deleted. */
  final class History implements AutoCloseable {
    final List<Pod> seen = new CopyOnWriteArrayList<>();
    volatile boolean deleted;
    final Watch watch;
    final String name;

    History(String name) {
      this.name = name;
      watch = run.client.pods().withName(name).watch(new Watcher<Pod>() {
        @Override
        public void eventReceived(Action action, Pod pod) {
          if (action == Action.DELETED) {
            deleted = true;
          } else {
            seen.add(pod);
          }
        }

        @Override
        public void onClose(WatcherException cause) {
        }
      });
    }

    Pod await(Predicate<Pod> condition, long millis) throws InterruptedException {
      long deadline = System.currentTimeMillis() + millis;
      while (System.currentTimeMillis() < deadline) {
        for (Pod pod : seen) {
          if (condition.test(pod)) {
            return pod;
          }
        }
        Thread.sleep(20);
      }
      fail("pod never reached the expected state; seen: " + seen.stream().map(PodRuns::describe).toList()
          + "; node timeline: " + run.agent.timeline().of(key(name)));
      return null;
    }

    /** Deletes the pod as a user would and waits until it is gone. */
    void delete() throws InterruptedException {
      run.client.pods().withName(name).delete();
      awaitDeleted(20_000);
    }

    void awaitDeleted(long millis) throws InterruptedException {
      long deadline = System.currentTimeMillis() + millis;
      while (!deleted && System.currentTimeMillis() < deadline) {
        Thread.sleep(20);
      }
      assertTrue(deleted, "pod was not removed");
    }

    ContainerStatus last() {
      return statuses(seen.get(seen.size() - 1)).get(0);
    }

    @Override
    public void close() {
      watch.close();
    }
  }

  History watch(String name) {
    return new History(name);
  }

  /** Creates the pod, waits until it runs, deletes it, waits until it is gone. */
  History runAndDelete(Pod pod) throws InterruptedException {
    String name = pod.getMetadata().getName();
    History history = new History(name);
    run.client.pods().resource(pod).create();
    history.await(PodRuns::running, 20_000);
    run.client.pods().withName(name).delete();
    history.awaitDeleted(20_000);
    return history;
  }

  static String describe(Pod pod) {
    return pod.getStatus() == null ? "no status" : pod.getStatus().getPhase() + " "
        + pod.getStatus().getContainerStatuses();
  }

  /**
   * The pod's container statuses, empty until the node wrote them: a real API server gives a new pod a status
   * (Pending) with none, the embedded one no status at all.
   */
  static List<ContainerStatus> statuses(Pod pod) {
    return pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null ? List.of()
        : pod.getStatus().getContainerStatuses();
  }

  static boolean running(Pod pod) {
    return !statuses(pod).isEmpty() && statuses(pod).stream().allMatch(c -> c.getState().getRunning() != null);
  }

  static boolean terminated(Pod pod) {
    return !statuses(pod).isEmpty() && statuses(pod).stream().allMatch(c -> c.getState().getTerminated() != null);
  }

  List<Event> events(String pod) {
    return run.client.v1().events().list().getItems().stream()
        .filter(e -> pod.equals(e.getInvolvedObject().getName())).toList();
  }

  /** The messages of the pod's events with this reason, oldest first. */
  List<String> messages(String pod, String reason) {
    return events(pod).stream().filter(e -> reason.equals(e.getReason())).map(Event::getMessage).toList();
  }

  List<String> reasons(String pod) {
    return events(pod).stream().map(Event::getReason).toList();
  }

  /** The pod's event reasons once one has this reason, or when the time is up. */
  List<String> reasonsOnceThere(String pod, String reason, long millis) throws InterruptedException {
    long deadline = System.currentTimeMillis() + millis;
    List<String> reasons = reasons(pod);
    while (!reasons.contains(reason) && System.currentTimeMillis() < deadline) {
      Thread.sleep(100);
      reasons = reasons(pod);
    }
    return reasons;
  }

  private String key(String pod) {
    return run.cluster.namespace() + "/" + pod;
  }

  Entry mark(String pod, Mark mark) {
    return run.agent.timeline().first(key(pod), null, mark)
        .orElseThrow(() -> new AssertionError(mark + " missing: " + run.agent.timeline().of(key(pod))));
  }

  boolean has(String pod, Mark mark) {
    return run.agent.timeline().first(key(pod), null, mark).isPresent();
  }

  void assertAfter(Entry from, Entry to, double seconds) {
    Timing.assertAt(Math.round(seconds * 1000), (to.nanos() - from.nanos()) / 1_000_000,
        to.mark() + " after " + from.mark() + "; node timeline: " + run.agent.timeline().of(to.pod()));
  }

  /**
   * The node stopped waiting for preStop ({@code end}) and sent SIGTERM at {@code term}, SIGKILL at {@code kill};
   * a FailedPreStopHook event says whether the hook failed.
   */
  void assertSignals(History history, Mark end, double term, double kill, boolean hookFailed)
      throws InterruptedException {
    // Events reach the API server after the pod is gone, so a failure's event is waited for.
    List<String> reasons = hookFailed ? reasonsOnceThere(history.name, "FailedPreStopHook", 20_000)
        : reasons(history.name);
    assertEquals(hookFailed, reasons.contains("FailedPreStopHook"), reasons.toString());
    Entry started = mark(history.name, Mark.PRE_STOP_STARTED);
    assertAfter(started, mark(history.name, end), term);
    assertAfter(started, mark(history.name, Mark.STOP_SIGNAL), term);
    assertAfter(started, mark(history.name, Mark.SIGKILL), kill);
    assertEquals(137, history.last().getState().getTerminated().getExitCode());
  }
}
