package io.hooklens.run.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.LifecycleHandler;
import io.fabric8.kubernetes.api.model.LifecycleHandlerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.hooklens.Timing;
import io.hooklens.run.cluster.EmbeddedCluster;
import io.hooklens.run.kube.BoundedOutput;
import io.hooklens.run.node.Timeline.Entry;
import io.hooklens.run.node.Timeline.Mark;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.ThrowingConsumer;

/**
 * The node agent with real processes in bubblewrap: each test creates a pod through the fabric8 client,
 * deletes it as a user would, and reads events and status from the API; signal times come from the agent's
 * timeline.
 */
@Tag("slow")
class NodeAgentTest {
  // As PID 1 in its sandbox the shell gets SIGTERM only through a trap.
  private static final List<String> STOPS_ON_TERM =
      List.of("sh", "-c", "trap 'exit 0' TERM; while :; do sleep 0.05; done");
  private static final List<String> IGNORES_TERM =
      List.of("sh", "-c", "trap '' TERM; while :; do sleep 0.05; done");

  private static EmbeddedCluster cluster;
  private static NodeAgent agent;
  private static KubernetesClient client;

  @BeforeAll
  static void start() {
    cluster = EmbeddedCluster.start();
    client = cluster.client();
    agent = NodeAgent.start(client);
    assertTrue(agent.isolated(), "bubblewrap must be installed (run-tests installs it)");
  }

  @AfterAll
  static void stop() {
    agent.close();
    cluster.close();
  }

  private static LifecycleHandler exec(String... command) {
    return new LifecycleHandlerBuilder().withNewExec().withCommand(command).endExec().build();
  }

  private static LifecycleHandler sleep(long seconds) {
    return new LifecycleHandlerBuilder().withNewSleep().withSeconds(seconds).endSleep().build();
  }

  private static Pod pod(String name, long grace, List<String> command, LifecycleHandler postStart,
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
  private static final class History implements AutoCloseable {
    final List<Pod> seen = new CopyOnWriteArrayList<>();
    volatile boolean deleted;
    final Watch watch;
    final String name;

    History(String name) {
      this.name = name;
      watch = client.pods().withName(name).watch(new Watcher<Pod>() {
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
      fail("pod never reached the expected state; seen: " + seen.stream().map(NodeAgentTest::describe).toList()
          + "; node timeline: " + agent.timeline().of("default/" + name));
      return null;
    }

    void awaitDeleted(long millis) throws InterruptedException {
      long deadline = System.currentTimeMillis() + millis;
      while (!deleted && System.currentTimeMillis() < deadline) {
        Thread.sleep(20);
      }
      assertTrue(deleted, "pod was not removed");
    }

    ContainerStatus last() {
      List<ContainerStatus> statuses = seen.get(seen.size() - 1).getStatus().getContainerStatuses();
      return statuses.get(0);
    }

    @Override
    public void close() {
      watch.close();
    }
  }

  private static String describe(Pod pod) {
    return pod.getStatus() == null ? "no status" : pod.getStatus().getPhase() + " "
        + pod.getStatus().getContainerStatuses();
  }

  private static boolean running(Pod pod) {
    return pod.getStatus() != null && pod.getStatus().getContainerStatuses() != null
        && pod.getStatus().getContainerStatuses().stream().allMatch(c -> c.getState().getRunning() != null);
  }

  private static boolean terminated(Pod pod) {
    return pod.getStatus() != null && pod.getStatus().getContainerStatuses() != null
        && pod.getStatus().getContainerStatuses().stream().allMatch(c -> c.getState().getTerminated() != null);
  }

  private static List<Event> events(String pod) {
    return client.v1().events().list().getItems().stream()
        .filter(e -> pod.equals(e.getInvolvedObject().getName())).toList();
  }

  private static List<String> reasons(String pod) {
    return events(pod).stream().map(Event::getReason).toList();
  }

  private static Entry mark(String pod, Mark mark) {
    return agent.timeline().first("default/" + pod, null, mark)
        .orElseThrow(() -> new AssertionError(mark + " missing: " + agent.timeline().of("default/" + pod)));
  }

  private static boolean has(String pod, Mark mark) {
    return agent.timeline().first("default/" + pod, null, mark).isPresent();
  }

  private static void assertAfter(Entry from, Entry to, double seconds) {
    Timing.assertAt(Math.round(seconds * 1000), (to.nanos() - from.nanos()) / 1_000_000,
        to.mark() + " after " + from.mark() + "; node timeline: " + agent.timeline().of(to.pod()));
  }

  /** The node stopped waiting for preStop ({@code end}) and sent SIGTERM at {@code term}, SIGKILL at {@code kill}. */
  private static void assertSignals(History history, Mark end, double term, double kill) {
    Entry started = mark(history.name, Mark.PRE_STOP_STARTED);
    assertAfter(started, mark(history.name, end), term);
    assertAfter(started, mark(history.name, Mark.STOP_SIGNAL), term);
    assertAfter(started, mark(history.name, Mark.SIGKILL), kill);
    assertEquals(137, history.last().getState().getTerminated().getExitCode());
  }

  /** Creates the pod, waits until it runs, deletes it, waits until it is gone. */
  private static History runAndDelete(Pod pod) throws InterruptedException {
    String name = pod.getMetadata().getName();
    History history = new History(name);
    client.pods().resource(pod).create();
    history.await(NodeAgentTest::running, 20_000);
    client.pods().withName(name).delete();
    history.awaitDeleted(20_000);
    return history;
  }

  @Test
  void aPreStopThatSucceedsRunsBeforeSigterm() throws InterruptedException {
    try (History history = runAndDelete(pod("prestop-ok", 3, STOPS_ON_TERM, null,
        exec("sh", "-c", "echo $GREETING from prestop")))) {
      Entry ended = mark("prestop-ok", Mark.PRE_STOP_ENDED);
      assertFalse(ended.failed(), ended.detail());
      assertEquals("hello from prestop\n", ended.output());
      assertTrue(mark("prestop-ok", Mark.STOP_SIGNAL).nanos() >= ended.nanos());
      assertFalse(has("prestop-ok", Mark.SIGKILL));
      assertEquals(0, history.last().getState().getTerminated().getExitCode());
      assertEquals(List.of("Scheduled", "Created", "Started", "Killing"), reasons("prestop-ok"));
    }
  }

  @Test
  void aFailingPreStopRecordsAnEventAndTheStopGoesOn() throws InterruptedException {
    try (History history = runAndDelete(pod("prestop-fails", 3, STOPS_ON_TERM, null, exec("sh", "-c", "exit 3")))) {
      assertTrue(mark("prestop-fails", Mark.PRE_STOP_ENDED).failed());
      Event failed = events("prestop-fails").stream().filter(e -> "FailedPreStopHook".equals(e.getReason()))
          .findFirst().orElseThrow();
      assertEquals("Warning", failed.getType());
      assertEquals("PreStopHook failed", failed.getMessage());
      assertEquals("spec.containers{app}", failed.getInvolvedObject().getFieldPath());
      assertTrue(failed.getFirstTimestamp() != null);
      assertAfter(mark("prestop-fails", Mark.PRE_STOP_ENDED), mark("prestop-fails", Mark.STOP_SIGNAL), 0);
      assertEquals(0, history.last().getState().getTerminated().getExitCode());
    }
  }

  @Test
  void aHangingPreStopIsAbandonedAtTheGracePeriodAndTheAppKilledTwoSecondsLater() throws InterruptedException {
    try (History history = runAndDelete(pod("prestop-hangs", 2, IGNORES_TERM, null, exec("sleep", "100")))) {
      assertSignals(history, Mark.PRE_STOP_ABANDONED, 2, 4);
      // The hook dies with the container, which is when the kubelet's hook call fails.
      assertTrue(reasons("prestop-hangs").contains("FailedPreStopHook"));
    }
  }

  @Test
  void aPreStopOverrunningTheGracePeriodGetsTheMinimumStopTime() throws InterruptedException {
    // grace 3 s, preStop 2 s and what starting it takes (under a second): 3 - 2 (whole seconds) = 1, raised to 2:
    // SIGKILL 2 s after the hook ends, past the grace. A second of room for the start keeps a busy machine right.
    try (History history = runAndDelete(pod("prestop-overruns", 3, IGNORES_TERM, null, exec("sleep", "2")))) {
      assertSignals(history, Mark.PRE_STOP_ENDED, 2, 4);
      assertFalse(has("prestop-overruns", Mark.PRE_STOP_ABANDONED));
      assertFalse(reasons("prestop-overruns").contains("FailedPreStopHook"));
    }
  }

  @Test
  void aSleepHookWaitsInTheNode() throws InterruptedException {
    try (History history = runAndDelete(pod("prestop-sleep", 3, STOPS_ON_TERM, null, sleep(1)))) {
      Entry started = mark("prestop-sleep", Mark.PRE_STOP_STARTED);
      assertAfter(started, mark("prestop-sleep", Mark.STOP_SIGNAL), 1);
      assertFalse(reasons("prestop-sleep").contains("FailedPreStopHook"));
      assertEquals(0, history.last().getState().getTerminated().getExitCode());
    }
  }

  @Test
  void aTcpSocketHookFailsAsTheKubeletFailsIt() throws InterruptedException {
    LifecycleHandler tcp = new LifecycleHandlerBuilder().withNewTcpSocket().withNewPort(8080).endTcpSocket().build();
    try (History history = runAndDelete(pod("prestop-tcp", 2, STOPS_ON_TERM, null, tcp))) {
      assertTrue(mark("prestop-tcp", Mark.PRE_STOP_ENDED).detail().contains("invalid handler"));
      assertTrue(reasons("prestop-tcp").contains("FailedPreStopHook"));
    }
  }

  @Test
  void postStartRunsWithTheEntrypointAndTheContainerRunsOnlyAfterIt() throws InterruptedException {
    String name = "poststart-ok";
    try (History history = runAndDelete(pod(name, 2, List.of("sh", "-c",
            "touch /tmp/started; trap 'exit 0' TERM; while :; do sleep 0.05; done"),
        exec("sh", "-c", "sleep 1; test -e /tmp/started"), null))) {
      assertFalse(mark(name, Mark.POST_START_ENDED).failed(), "the entrypoint ran while postStart slept");
      assertTrue(history.seen.stream().anyMatch(p -> p.getStatus() != null
          && p.getStatus().getContainerStatuses() != null
          && "ContainerCreating".equals(p.getStatus().getContainerStatuses().get(0).getState().getWaiting() == null
              ? null : p.getStatus().getContainerStatuses().get(0).getState().getWaiting().getReason())),
          "waiting while postStart runs");
      assertAfter(mark(name, Mark.CONTAINER_STARTED), mark(name, Mark.RUNNING), 1);
    }
  }

  @Test
  void aFailingPostStartKillsTheContainer() throws InterruptedException {
    String name = "poststart-fails";
    History history = new History(name);
    try (history) {
      client.pods().resource(pod(name, 1, IGNORES_TERM, exec("sh", "-c", "exit 1"), null)).create();
      Pod done = history.await(NodeAgentTest::terminated, 20_000);
      assertEquals("Failed", done.getStatus().getPhase());
      assertEquals(137, done.getStatus().getContainerStatuses().get(0).getState().getTerminated().getExitCode());
      assertTrue(history.seen.stream().noneMatch(NodeAgentTest::running), "never Running");
      Event failed = events(name).stream().filter(e -> "FailedPostStartHook".equals(e.getReason())).findFirst()
          .orElseThrow();
      assertEquals("PostStartHook failed", failed.getMessage());
      // The kubelet's killContainer passes the hook's failure as the Killing event's message.
      Event killing = events(name).stream().filter(e -> "Killing".equals(e.getReason())).findFirst().orElseThrow();
      assertEquals("FailedPostStartHook", killing.getMessage());
      // Killed with the pod's grace period (1 s), raised to the 2 s minimum.
      assertAfter(mark(name, Mark.STOP_SIGNAL), mark(name, Mark.SIGKILL), 2);
      client.pods().withName(name).delete();
      history.awaitDeleted(5_000);
    }
  }

  /**
   * A pod whose container serves {@code /shutdown} on port 8080 of {@code address} (a JVM running
   * {@link TinyHttpServer}), with an httpGet preStop to it and the pod IP in {@code POD_IP}.
   */
  private static Pod serverPod(String name, String address, Path dir) throws IOException {
    String java = ProcessHandle.current().info().command().orElseThrow();
    // The container sees the host's /usr (the JDK), not the checkout: the server's class goes in a jar under
    // /tmp, which the node binds since the command names it, in a folder the sandbox's user may read.
    Path classes = dir.resolve("tiny-http.jar");
    String entry = TinyHttpServer.class.getName().replace('.', '/') + ".class";
    try (var out = new JarOutputStream(Files.newOutputStream(classes));
        var in = TinyHttpServer.class.getClassLoader().getResourceAsStream(entry)) {
      out.putNextEntry(new JarEntry(entry));
      in.transferTo(out);
    }
    Files.setPosixFilePermissions(classes, PosixFilePermissions.fromString("rw-r--r--"));
    LifecycleHandler http = new LifecycleHandlerBuilder().withNewHttpGet().withPath("/shutdown")
        .withNewPort("http").endHttpGet().build();
    return new PodBuilder(pod(name, 3, List.of(java, "-XX:TieredStopAtLevel=1", "-cp", classes.toString(),
        TinyHttpServer.class.getName(), "8080", address),
        exec("sh", "-c", "until [ -e /tmp/listening ]; do sleep 0.05; done; echo POD_IP=$POD_IP"), http))
        .editSpec().editFirstContainer().addNewPort().withName("http").withContainerPort(8080).endPort()
        .addNewEnv().withName("POD_IP").withNewValueFrom().withNewFieldRef().withFieldPath("status.podIP")
        .endFieldRef().endValueFrom().endEnv().endContainer().endSpec().build();
  }

  /** Runs {@link #serverPod} and deletes it, checking what it did before the server's folder goes. */
  private static void withServerPod(String name, String address, ThrowingConsumer<History> check) throws Throwable {
    Path dir = Files.createTempDirectory(Path.of("/tmp"), "tiny-http-",
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
    try (History history = runAndDelete(serverPod(name, address, dir))) {
      check.accept(history);
    } finally {
      NodeAgent.deleteTree(dir);
    }
  }

  @Test
  void anHttpGetPreStopReachesTheContainersOwnServerAtThePodIp() throws Throwable {
    withServerPod("prestop-http", "0.0.0.0", history -> {
      Entry ended = mark("prestop-http", Mark.PRE_STOP_ENDED);
      assertFalse(ended.failed(), ended.detail());
      assertTrue(ended.output().startsWith("HTTP/1.1 200"), ended.output());
      assertEquals(42, history.last().getState().getTerminated().getExitCode(), "the server got the request");
      assertFalse(reasons("prestop-http").contains("FailedPreStopHook"));
      String podIp = history.seen.stream().map(p -> p.getStatus() == null ? null : p.getStatus().getPodIP())
          .filter(ip -> ip != null).findFirst().orElseThrow();
      assertTrue(podIp.startsWith("10.244."), podIp);
      assertEquals("POD_IP=" + podIp, mark("prestop-http", Mark.POST_START_ENDED).output().strip());
    });
  }

  @Test
  void anHttpGetDoesNotReachAServerBoundToLoopbackOnly() throws Throwable {
    // The kubelet dials the pod IP: on a cluster, a server listening on 127.0.0.1 alone refuses it.
    withServerPod("prestop-loopback", "127.0.0.1", history -> {
      Entry ended = mark("prestop-loopback", Mark.PRE_STOP_ENDED);
      assertTrue(ended.failed(), ended.detail());
      assertTrue(ended.detail().contains("http://10.244."), ended.detail());
      assertTrue(reasons("prestop-loopback").contains("FailedPreStopHook"));
      assertEquals(1, history.last().getState().getTerminated().getExitCode(), "the server never got it");
    });
  }

  @Test
  void anHttpGetToAPortNobodyServesFails() throws InterruptedException {
    LifecycleHandler http = new LifecycleHandlerBuilder().withNewHttpGet().withPath("/").withNewPort(8081)
        .endHttpGet().build();
    try (History history = runAndDelete(pod("prestop-http-closed", 2, STOPS_ON_TERM, null, http))) {
      assertTrue(mark("prestop-http-closed", Mark.PRE_STOP_ENDED).failed());
      assertTrue(reasons("prestop-http-closed").contains("FailedPreStopHook"));
    }
  }

  @Test
  void aHookCannotWriteOutsideItsSandbox() throws InterruptedException {
    Path target = Path.of("/usr/hooklens-escape-" + ProcessHandle.current().pid());
    try (History history = runAndDelete(pod("escape-write", 2, STOPS_ON_TERM, null,
        exec("sh", "-c", "echo x > " + target + " && echo WROTE")))) {
      Entry ended = mark("escape-write", Mark.PRE_STOP_ENDED);
      assertTrue(ended.failed());
      assertTrue(ended.output().contains("Read-only file system"), ended.output());
      assertFalse(Files.exists(target));
    }
  }

  @Test
  void aHookCannotReachTheNetworkOutsideItsPod() throws Exception {
    try (ServerSocketChannel host = ServerSocketChannel.open()) {
      host.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      host.configureBlocking(false);
      int port = ((InetSocketAddress) host.getLocalAddress()).getPort();
      try (History history = runAndDelete(pod("escape-net", 2, STOPS_ON_TERM, null,
          exec("bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/" + port + " && echo CONNECTED")))) {
        Entry ended = mark("escape-net", Mark.PRE_STOP_ENDED);
        assertTrue(ended.failed());
        assertFalse(ended.output().contains("CONNECTED"), ended.output());
        assertEquals(null, host.accept(), "the host's loopback was reached");
      }
    }
  }

  @Test
  void aHookAndAContainerThatPrintMegabytesKeepOnlyTheEndOfWhatTheyPrinted() throws InterruptedException {
    String tenMegabytes = "head -c 10485760 /dev/zero | tr '\\0' ";
    Pod pod = pod("chatty", 3, List.of("sh", "-c", tenMegabytes + "x; echo; echo app end; "
        + "trap 'exit 0' TERM; while :; do sleep 0.05; done"), null,
        exec("sh", "-c", tenMegabytes + "y; echo; echo hook end; exit 3"));
    try (History history = new History("chatty")) {
      client.pods().resource(pod).create();
      history.await(NodeAgentTest::running, 20_000);
      long deadline = System.nanoTime() + 20_000_000_000L;
      while (!agent.log("default", "chatty", "app").text().endsWith("app end\n") && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      BoundedOutput.Tail log = agent.log("default", "chatty", "app");
      assertEquals(BoundedOutput.KEPT_BYTES, log.text().length());
      assertTrue(log.text().endsWith("xxx\napp end\n"), log.text().substring(log.text().length() - 20));
      assertEquals(10_485_760 + "\napp end\n".length() - BoundedOutput.KEPT_BYTES, log.droppedBytes());
      client.pods().withName("chatty").delete();
      history.awaitDeleted(20_000);

      Entry ended = mark("chatty", Mark.PRE_STOP_ENDED);
      assertTrue(ended.failed());
      assertEquals(BoundedOutput.KEPT_BYTES, ended.output().length());
      assertTrue(ended.output().endsWith("yyy\nhook end\n"), ended.output().substring(ended.output().length() - 20));
      assertEquals(10_485_760 + "\nhook end\n".length() - BoundedOutput.KEPT_BYTES, ended.outputDroppedBytes());
      assertTrue(ended.detail().length() < 400 && ended.detail().endsWith("yyy\nhook end\n"), ended.detail());
    }
  }

  @Test
  void aResourceFieldInEnvIsLeftUnsetWithAWarning() throws InterruptedException {
    Pod pod = new PodBuilder(pod("env-from", 2, STOPS_ON_TERM, null, exec("sh", "-c", "echo ${MEMORY-unset}")))
        .editSpec().editFirstContainer().addNewEnv().withName("MEMORY").withNewValueFrom().withNewResourceFieldRef()
        .withResource("limits.memory").endResourceFieldRef().endValueFrom().endEnv().endContainer().endSpec().build();
    try (History history = runAndDelete(pod)) {
      assertTrue(mark("env-from", Mark.WARNING).detail().contains("MEMORY"));
      assertEquals("unset\n", mark("env-from", Mark.PRE_STOP_ENDED).output());
      assertTrue(Objects.nonNull(history.last()));
    }
  }
}
