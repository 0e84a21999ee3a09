package io.hooklens.run.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.LifecycleHandler;
import io.fabric8.kubernetes.api.model.LifecycleHandlerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.hooklens.run.RunFixture;
import io.hooklens.run.node.Timeline.Mark;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Fifty pods with postStart and preStop hooks at once on one node, watched through the API as a user would watch
 * them: every status written must be a legal step from the one before (the phase never goes back, a container only
 * moves forward within a run and its restarts only grow), and each container's events and hook marks come in the
 * kubelet's order. {@code -Dhooklens.soak=true} runs the round twenty times more, each on the same node.
 */
@Tag("slow")
class ConcurrentPodsTest {
  private static final int PODS = 50;
  private static final long WAIT_MILLIS = 180_000;
  // Per container, in the order the API received them: each run is created and started, may fail its postStart,
  // may be killed (and fail its preStop), and may back off before the next.
  private static final Pattern EVENT_ORDER =
      Pattern.compile("(Created Started( FailedPostStartHook)?( Killing( FailedPreStopHook)?)?( BackOff)? ?)+");
  private static final Logger NODE_LOG = Logger.getLogger("io.hooklens.run.node");
  private static final List<LogRecord> SEVERE = new CopyOnWriteArrayList<>();

  private static RunFixture run;
  private static Watch podWatch;
  private static Watch eventWatch;
  private static final Map<String, List<Pod>> statuses = new ConcurrentHashMap<>();
  private static final Map<String, List<Event>> events = new ConcurrentHashMap<>();
  private static final Map<String, Boolean> deleted = new ConcurrentHashMap<>();

  @BeforeAll
  static void start() {
    // A second run of the class in the same JVM starts from nothing: its pods have the names of the first's.
    Stream.of(statuses, events, deleted).forEach(Map::clear);
    SEVERE.clear();
    NODE_LOG.addHandler(new Handler() {
      @Override
      public void publish(LogRecord record) {
        if (record.getLevel().intValue() >= Level.SEVERE.intValue()) {
          SEVERE.add(record);
        }
      }

      @Override
      public void flush() {
      }

      @Override
      public void close() {
      }
    });
    run = new RunFixture();
    podWatch = run.client.pods().watch(new Watcher<Pod>() {
      @Override
      public void eventReceived(Action action, Pod pod) {
        String name = pod.getMetadata().getName();
        if (action == Action.DELETED) {
          deleted.put(name, true);
        } else {
          statuses.computeIfAbsent(name, n -> new CopyOnWriteArrayList<>()).add(pod);
        }
      }

      @Override
      public void onClose(WatcherException cause) {
      }
    });
    eventWatch = run.client.v1().events().watch(new Watcher<Event>() {
      @Override
      public void eventReceived(Action action, Event event) {
        if (action == Action.ADDED) {
          events.computeIfAbsent(event.getInvolvedObject().getName(), n -> new CopyOnWriteArrayList<>()).add(event);
        }
      }

      @Override
      public void onClose(WatcherException cause) {
      }
    });
  }

  @AfterAll
  static void stop() {
    podWatch.close();
    eventWatch.close();
    run.close();
  }

  @Test
  void fiftyPodsWithHooksAtOnceOnlyEverMoveForward() throws InterruptedException {
    round("once");
  }

  @RepeatedTest(20)
  @EnabledIfSystemProperty(named = "hooklens.soak", matches = "true")
  void twentyRoundsInARow(RepetitionInfo repetition) throws InterruptedException {
    round("soak" + repetition.getCurrentRepetition());
  }

  /** What each pod does: serve until deleted, finish, fail once and restart, wait for an init container, fail its postStart. */
  private enum Kind { SERVES, FINISHES, RESTARTS, INITIALIZED, POST_START_FAILS }

  private static void round(String prefix) throws InterruptedException {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < PODS; i++) {
      Kind kind = Kind.values()[i % Kind.values().length];
      String name = prefix + "-" + kind.name().toLowerCase().replace('_', '-') + "-" + i;
      names.add(name);
      run.client.pods().resource(pod(name, kind)).create();
    }
    for (String name : names) {
      run.await(name + " running or done", () -> settled(last(name)) ? name : null, WAIT_MILLIS);
    }
    names.forEach(name -> run.client.pods().withName(name).delete());
    for (String name : names) {
      run.await(name + " removed", () -> deleted.containsKey(name) ? name : null, WAIT_MILLIS);
    }
    for (String name : names) {
      checkStatuses(name);
      checkEvents(name);
      checkMarks(name);
    }
    assertEquals(List.of(), SEVERE.stream().map(r -> r.getMessage() + ": " + r.getThrown()).toList(),
        "the node failed inside a pod's loop");
  }

  private static Pod pod(String name, Kind kind) {
    String serve = "trap 'exit 0' TERM; while :; do sleep 0.05; done";
    String script = switch (kind) {
      case FINISHES -> "sleep 0.3";
      case RESTARTS -> "n=$(cat /state/n 2>/dev/null || echo 0); echo $((n+1)) > /state/n; [ $n -ge 1 ]";
      default -> serve;
    };
    LifecycleHandler postStart = exec(kind == Kind.POST_START_FAILS ? "echo cannot start; exit 1" : "echo up");
    LifecycleHandler preStop = exec(kind == Kind.INITIALIZED ? "echo cannot stop; exit 3" : "sleep 0.2");
    Container app = new ContainerBuilder().withName("app").withImage("debian:12").withCommand("sh", "-c", script)
        .withNewLifecycle().withPostStart(postStart).withPreStop(preStop).endLifecycle()
        .addNewVolumeMount().withName("state").withMountPath("/state").endVolumeMount().build();
    PodBuilder pod = new PodBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec()
        .withRestartPolicy(kind == Kind.RESTARTS ? "OnFailure" : "Never").withTerminationGracePeriodSeconds(5L)
        .withContainers(app).addNewVolume().withName("state").withNewEmptyDir().endEmptyDir().endVolume().endSpec();
    if (kind == Kind.INITIALIZED) {
      pod.editSpec().addNewInitContainer().withName("prepare").withImage("debian:12")
          .withCommand("sh", "-c", "echo ready > /state/ready")
          .addNewVolumeMount().withName("state").withMountPath("/state").endVolumeMount().endInitContainer()
          .endSpec();
    }
    return pod.build();
  }

  private static LifecycleHandler exec(String script) {
    return new LifecycleHandlerBuilder().withNewExec().withCommand("sh", "-c", script).endExec().build();
  }

  private static Pod last(String name) {
    List<Pod> seen = statuses.getOrDefault(name, List.of());
    return seen.isEmpty() ? null : seen.get(seen.size() - 1);
  }

  private static boolean settled(Pod pod) {
    if (pod == null || pod.getStatus() == null || pod.getStatus().getPhase() == null) {
      return false;
    }
    String phase = pod.getStatus().getPhase();
    boolean running = "Running".equals(phase) && pod.getStatus().getContainerStatuses().stream()
        .allMatch(c -> c.getState().getRunning() != null);
    return running || "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  private static int phaseRank(Pod pod) {
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    return phase == null ? -1 : switch (phase) {
      case "Pending" -> 0;
      case "Running" -> 1;
      case "Succeeded", "Failed" -> 2;
      default -> throw new AssertionError("unknown phase " + phase);
    };
  }

  // Within a run: waiting, running, then over (terminated, or waiting to restart after it).
  private static int stateRank(ContainerState state) {
    if (state.getTerminated() != null
        || state.getWaiting() != null && "CrashLoopBackOff".equals(state.getWaiting().getReason())) {
      return 2;
    }
    return state.getRunning() != null ? 1 : 0;
  }

  private static void checkStatuses(String name) {
    List<Pod> seen = statuses.get(name);
    String history = name + " went " + seen.stream().map(ConcurrentPodsTest::describe).toList();
    Pod before = null;
    for (Pod pod : seen) {
      if (before != null) {
        assertTrue(phaseRank(pod) >= phaseRank(before), "phase went back: " + history);
        if (phaseRank(before) == 2) {
          assertEquals(before.getStatus().getPhase(), pod.getStatus().getPhase(), "an ended pod changed: " + history);
        }
        for (ContainerStatus now : containers(pod).toList()) {
          containers(before).filter(c -> c.getName().equals(now.getName())).findFirst()
              .ifPresent(then -> checkContainer(then, now, history));
        }
      }
      before = pod;
    }
  }

  private static void checkContainer(ContainerStatus then, ContainerStatus now, String history) {
    assertTrue(now.getRestartCount() >= then.getRestartCount(), "restartCount went down: " + history);
    if (now.getRestartCount().equals(then.getRestartCount())) {
      assertTrue(stateRank(now.getState()) >= stateRank(then.getState()),
          now.getName() + " went back within a run: " + history);
    }
  }

  private static Stream<ContainerStatus> containers(Pod pod) {
    if (pod.getStatus() == null) {
      return Stream.empty();
    }
    return Stream.concat(
        pod.getStatus().getInitContainerStatuses() == null ? Stream.empty()
            : pod.getStatus().getInitContainerStatuses().stream(),
        pod.getStatus().getContainerStatuses() == null ? Stream.empty()
            : pod.getStatus().getContainerStatuses().stream());
  }

  private static String describe(Pod pod) {
    return (pod.getStatus() == null ? "-" : pod.getStatus().getPhase()) + containers(pod)
        .map(c -> " " + c.getName() + "#" + c.getRestartCount() + ":" + (c.getState().getRunning() != null ? "running"
            : c.getState().getTerminated() != null ? "terminated " + c.getState().getTerminated().getExitCode()
            : "waiting " + c.getState().getWaiting().getReason()))
        .reduce("", String::concat);
  }

  private static void checkEvents(String name) throws InterruptedException {
    // A failed hook's event is written by the hook's thread, which may finish just after the pod is gone.
    List<Event> all = run.await(name + "'s events", () -> {
      List<Event> list = events.getOrDefault(name, List.of());
      boolean complete = !name.contains("-initialized-")
          || list.stream().anyMatch(e -> "FailedPreStopHook".equals(e.getReason()));
      return complete ? list : null;
    }, WAIT_MILLIS);
    assertEquals("Scheduled", all.get(0).getReason(), name + ": " + reasons(all, null));
    for (String container : List.of("prepare", "app")) {
      String order = reasons(all, container);
      if (!order.isEmpty() || !"prepare".equals(container)) {
        assertTrue(EVENT_ORDER.matcher(order).matches(), name + "/" + container + " had events " + order);
      }
    }
    if (name.contains("-post-start-fails-")) {
      assertTrue(reasons(all, "app").contains("FailedPostStartHook Killing"), reasons(all, "app"));
    }
    if (name.contains("-initialized-")) {
      assertTrue(reasons(all, "app").contains("Killing FailedPreStopHook"), reasons(all, "app"));
    }
  }

  private static String reasons(List<Event> all, String container) {
    return String.join(" ", all.stream().filter(e -> container == null || e.getInvolvedObject().getFieldPath() != null
        && e.getInvolvedObject().getFieldPath().endsWith("{" + container + "}")).map(Event::getReason).toList());
  }

  /** Each run's marks on the node: started, postStart around it and before running, preStop before SIGTERM. */
  private static void checkMarks(String name) {
    List<Timeline.Entry> entries = run.agent.timeline().of("default/" + name).stream()
        .filter(e -> "app".equals(e.container())).toList();
    List<List<Mark>> runs = new ArrayList<>();
    for (Timeline.Entry entry : entries) {
      if (entry.mark() == Mark.CONTAINER_STARTED) {
        runs.add(new ArrayList<>());
      }
      if (!runs.isEmpty() && entry.mark() != Mark.WARNING) {
        runs.get(runs.size() - 1).add(entry.mark());
      }
    }
    assertTrue(!runs.isEmpty(), name + " never started: " + entries);
    for (List<Mark> marks : runs) {
      String seen = name + " marked " + marks;
      before(marks, Mark.CONTAINER_STARTED, Mark.POST_START_STARTED, seen);
      before(marks, Mark.POST_START_STARTED, Mark.POST_START_ENDED, seen);
      before(marks, Mark.POST_START_ENDED, Mark.RUNNING, seen);
      before(marks, Mark.PRE_STOP_STARTED, Mark.PRE_STOP_ENDED, seen);
      before(marks, Mark.PRE_STOP_ENDED, Mark.STOP_SIGNAL, seen);
      before(marks, Mark.STOP_SIGNAL, Mark.EXITED, seen);
      before(marks, Mark.CONTAINER_STARTED, Mark.EXITED, seen);
    }
  }

  private static void before(List<Mark> marks, Mark first, Mark then, String seen) {
    if (marks.contains(first) && marks.contains(then) && marks.indexOf(first) > marks.indexOf(then)) {
      fail(first + " after " + then + ": " + seen);
    }
  }
}
