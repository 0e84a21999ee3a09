package io.hooklens.run.node;

import static io.hooklens.run.node.PodRuns.IGNORES_TERM;
import static io.hooklens.run.node.PodRuns.STOPS_ON_TERM;
import static io.hooklens.run.node.PodRuns.exec;
import static io.hooklens.run.node.PodRuns.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.LifecycleHandler;
import io.fabric8.kubernetes.api.model.LifecycleHandlerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.hooklens.run.RunFixture;
import io.hooklens.run.RunFixture.Kind;
import io.hooklens.run.node.PodRuns.History;
import io.hooklens.run.node.Timeline.Entry;
import io.hooklens.run.node.Timeline.Mark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What the kubelet does with a container's hooks, probes and restarts, each scenario with the upstream source it
 * follows (kubernetes v1.36.3 under pkg/kubelet) and run twice: on the embedded API and on a real control plane
 * (skipped without its binaries), the node agent being the kubelet of both. Each cluster starts once for the
 * class; a scenario whose result differs between them is a fault of the node.
 */
@Tag("slow")
class KubeletScenariosTest {
  private static final RunFixture.PerClass CLUSTERS = new RunFixture.PerClass();

  @AfterAll
  static void stop() {
    CLUSTERS.close();
  }

  private static PodRuns on(Kind kind) {
    return new PodRuns(CLUSTERS.get(kind));
  }

  // kuberuntime_container.go killContainer and executePreStopHook: the hook is abandoned at the grace deadline,
  // SIGTERM goes at once, and SIGKILL after what is left of the grace period, at least minimumGracePeriodInSeconds.
  @ParameterizedTest
  @EnumSource(Kind.class)
  void aHangingPreStopIsAbandonedAtTheGracePeriodAndTheAppKilledTwoSecondsLater(Kind kind) throws Exception {
    // The hook dies with the container, which is when the kubelet's hook call fails.
    stopIgnoringTerm(kind, "prestop-hangs", 2, 100, Mark.PRE_STOP_ABANDONED, true);
  }

  /**
   * Runs a pod whose app ignores SIGTERM and whose preStop sleeps, deletes it, and checks that the node stopped
   * waiting for the hook ({@code end}) and sent SIGTERM 2 s after it started, SIGKILL 4 s after.
   */
  private static PodRuns stopIgnoringTerm(Kind kind, String name, long grace, long sleep, Mark end,
      boolean hookFailed) throws InterruptedException {
    PodRuns pods = on(kind);
    try (History history = pods.runAndDelete(pod(name, grace, IGNORES_TERM, null, exec("sleep", "" + sleep)))) {
      pods.assertSignals(history, end, 2, 4, hookFailed);
    }
    return pods;
  }

  // kuberuntime_container.go killContainer: gracePeriod minus the hook's whole seconds, raised to
  // minimumGracePeriodInSeconds (2, kuberuntime_manager.go).
  @ParameterizedTest
  @EnumSource(Kind.class)
  void aPreStopOverrunningTheGracePeriodGetsTheMinimumStopTime(Kind kind) throws Exception {
    // grace 3 s, preStop 2 s and what starting it takes (under a second): 3 - 2 (whole seconds) = 1, raised to 2:
    // SIGKILL 2 s after the hook ends, past the grace. A second of room for the start keeps a busy machine right.
    PodRuns pods = stopIgnoringTerm(kind, "prestop-overruns", 3, 2, Mark.PRE_STOP_ENDED, false);
    assertFalse(pods.has("prestop-overruns", Mark.PRE_STOP_ABANDONED));
  }

  // kuberuntime_container.go executePreStopHook: a failing hook is a FailedPreStopHook warning, and the stop goes on.
  @ParameterizedTest
  @EnumSource(Kind.class)
  void aFailingPreStopRecordsAnEventAndTheStopGoesOn(Kind kind) throws Exception {
    PodRuns pods = on(kind);
    try (History history = pods.runAndDelete(pod("prestop-fails", 3, STOPS_ON_TERM, null,
        exec("sh", "-c", "exit 3")))) {
      assertTrue(pods.mark("prestop-fails", Mark.PRE_STOP_ENDED).failed());
      Event failed = pods.events("prestop-fails").stream().filter(e -> "FailedPreStopHook".equals(e.getReason()))
          .findFirst().orElseThrow();
      assertEquals("Warning", failed.getType());
      assertEquals("PreStopHook failed", failed.getMessage());
      assertEquals("spec.containers{app}", failed.getInvolvedObject().getFieldPath());
      assertTrue(failed.getFirstTimestamp() != null);
      pods.assertAfter(pods.mark("prestop-fails", Mark.PRE_STOP_ENDED), pods.mark("prestop-fails", Mark.STOP_SIGNAL), 0);
      assertEquals(0, history.last().getState().getTerminated().getExitCode());
    }
  }

  // kuberuntime_container.go startContainer: the process starts (step 3), then the postStart hook runs beside it
  // (step 4); the container is Running only once the hook returned.
  @ParameterizedTest
  @EnumSource(Kind.class)
  void postStartRunsWithTheEntrypointAndTheContainerRunsOnlyAfterIt(Kind kind) throws Exception {
    PodRuns pods = on(kind);
    String name = "poststart-ok";
    try (History history = pods.runAndDelete(pod(name, 2, List.of("sh", "-c",
            "touch /tmp/started; trap 'exit 0' TERM; while :; do sleep 0.05; done"),
        exec("sh", "-c", "sleep 1; test -e /tmp/started"), null))) {
      assertFalse(pods.mark(name, Mark.POST_START_ENDED).failed(), "the entrypoint ran while postStart slept");
      assertTrue(history.seen.stream().anyMatch(p -> PodRuns.statuses(p).stream()
          .anyMatch(c -> c.getState().getWaiting() != null
              && "ContainerCreating".equals(c.getState().getWaiting().getReason()))), "waiting while postStart runs");
      pods.assertAfter(pods.mark(name, Mark.CONTAINER_STARTED), pods.mark(name, Mark.RUNNING), 1);
    }
  }

  // kuberuntime_container.go startContainer: a failing postStart is a FailedPostStartHook warning, then
  // killContainer with the message "FailedPostStartHook" and the pod's grace period (at least 2 s).
  @ParameterizedTest
  @EnumSource(Kind.class)
  void aFailingPostStartKillsTheContainer(Kind kind) throws Exception {
    PodRuns pods = on(kind);
    String name = "poststart-fails";
    try (History history = pods.watch(name)) {
      pods.run.client.pods().resource(pod(name, 1, IGNORES_TERM, exec("sh", "-c", "exit 1"), null)).create();
      Pod done = history.await(PodRuns::terminated, 20_000);
      assertEquals("Failed", done.getStatus().getPhase());
      assertEquals(137, done.getStatus().getContainerStatuses().get(0).getState().getTerminated().getExitCode());
      assertTrue(history.seen.stream().noneMatch(PodRuns::running), "never Running");
      assertEquals(List.of("PostStartHook failed"), pods.messages(name, "FailedPostStartHook"));
      assertEquals(List.of("FailedPostStartHook"), pods.messages(name, "Killing"));
      // Killed with the pod's grace period (1 s), raised to the 2 s minimum.
      pods.assertAfter(pods.mark(name, Mark.STOP_SIGNAL), pods.mark(name, Mark.SIGKILL), 2);
      history.delete();
    }
  }

  // kuberuntime_manager.go computePodActions: a container killed for its postStart has exited, and restarts as
  // its pod's restartPolicy says (here Always); doBackOff lets the first restart go at once.
  @ParameterizedTest
  @EnumSource(Kind.class)
  void aContainerKilledForItsPostStartRestartsAsItsRestartPolicySays(Kind kind) throws Exception {
    PodRuns pods = on(kind);
    String name = "poststart-restarts";
    // The first postStart fails, the second (in the restarted container) finds its mark in the pod's emptyDir.
    Pod pod = new PodBuilder(pod(name, 1, STOPS_ON_TERM,
        exec("sh", "-c", "test -e /tmp/state/tried || { touch /tmp/state/tried; exit 1; }"), null))
        .editSpec().withRestartPolicy("Always").editFirstContainer().addNewVolumeMount().withName("state")
        .withMountPath("/tmp/state").endVolumeMount().endContainer().addNewVolume().withName("state")
        .withNewEmptyDir().endEmptyDir().endVolume().endSpec().build();
    try (History history = pods.watch(name)) {
      pods.run.client.pods().resource(pod).create();
      Pod running = history.await(p -> PodRuns.running(p) && PodRuns.statuses(p).get(0).getRestartCount() == 1,
          30_000);
      assertEquals("Running", running.getStatus().getPhase());
      ContainerStatus status = running.getStatus().getContainerStatuses().get(0);
      // Its TERM trap ended the first run: Always restarts whatever the exit code.
      assertEquals(0, status.getLastState().getTerminated().getExitCode(), status.toString());
      assertEquals(List.of("PostStartHook failed"), pods.messages(name, "FailedPostStartHook"));
      assertEquals(List.of("FailedPostStartHook"), pods.messages(name, "Killing"));
      assertEquals(List.of(), pods.messages(name, "BackOff"), "the first restart is not backed off");
      history.delete();
    }
  }

  // lifecycle/handlers.go Run: a lifecycle tcpSocket is no handler the kubelet runs ("invalid handler"), whatever
  // listens on the port.
  @ParameterizedTest
  @EnumSource(Kind.class)
  void aTcpSocketHookFailsAsTheKubeletFailsIt(Kind kind) throws Exception {
    PodRuns pods = on(kind);
    LifecycleHandler tcp = new LifecycleHandlerBuilder().withNewTcpSocket().withNewPort(8080).endTcpSocket().build();
    try (History history = pods.runAndDelete(pod("prestop-tcp", 2, STOPS_ON_TERM, null, tcp))) {
      assertTrue(pods.mark("prestop-tcp", Mark.PRE_STOP_ENDED).detail().contains("invalid handler"));
      assertTrue(pods.reasons("prestop-tcp").contains("FailedPreStopHook"));
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

  /** What a test checks of a server pod's run: its states, and the end of its preStop. */
  private interface ServerCheck {
    void accept(History history, Entry preStop) throws Throwable;
  }

  /**
   * Runs {@link #serverPod} and deletes it, checking what it did before the server's folder goes; the kubelet's
   * warning goes with the hook's failure either way.
   */
  private static void withServerPod(PodRuns pods, String name, String address, ServerCheck check)
      throws Throwable {
    Path dir = Files.createTempDirectory(Path.of("/tmp"), "tiny-http-",
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
    try (History history = pods.runAndDelete(serverPod(name, address, dir))) {
      Entry ended = pods.mark(name, Mark.PRE_STOP_ENDED);
      assertEquals(ended.failed(), pods.reasons(name).contains("FailedPreStopHook"), ended.detail());
      check.accept(history, ended);
    } finally {
      NodeAgent.deleteTree(dir);
    }
  }

  // lifecycle/handlers.go runHTTPHandler: with no host, the kubelet dials the pod's IP, and a named port is the
  // container's.
  @ParameterizedTest
  @EnumSource(Kind.class)
  void anHttpGetPreStopReachesTheContainersOwnServerAtThePodIp(Kind kind) throws Throwable {
    PodRuns pods = on(kind);
    withServerPod(pods, "prestop-http", "0.0.0.0", (history, ended) -> {
      assertFalse(ended.failed(), ended.detail());
      assertTrue(ended.output().startsWith("HTTP/1.1 200"), ended.output());
      assertEquals(42, history.last().getState().getTerminated().getExitCode(), "the server got the request");
      String podIp = history.seen.stream().map(p -> p.getStatus() == null ? null : p.getStatus().getPodIP())
          .filter(ip -> ip != null).findFirst().orElseThrow();
      assertTrue(podIp.startsWith("10.244."), podIp);
      assertEquals("POD_IP=" + podIp, pods.mark("prestop-http", Mark.POST_START_ENDED).output().strip());
    });
  }

  // lifecycle/handlers.go runHTTPHandler: the pod IP is dialled, so a server listening on 127.0.0.1 alone refuses.
  @ParameterizedTest
  @EnumSource(Kind.class)
  void anHttpGetDoesNotReachAServerBoundToLoopbackOnly(Kind kind) throws Throwable {
    withServerPod(on(kind), "prestop-loopback", "127.0.0.1", (history, ended) -> {
      assertTrue(ended.failed(), ended.detail());
      assertTrue(ended.detail().contains("http://10.244."), ended.detail());
      assertEquals(1, history.last().getState().getTerminated().getExitCode(), "the server never got it");
    });
  }

  // lifecycle/handlers.go runHTTPHandler: a refused connection is the hook's error.
  @ParameterizedTest
  @EnumSource(Kind.class)
  void anHttpGetToAPortNobodyServesFails(Kind kind) throws Exception {
    PodRuns pods = on(kind);
    LifecycleHandler http = new LifecycleHandlerBuilder().withNewHttpGet().withPath("/").withNewPort(8081)
        .endHttpGet().build();
    try (History history = pods.runAndDelete(pod("prestop-http-closed", 2, STOPS_ON_TERM, null, http))) {
      Entry ended = pods.mark("prestop-http-closed", Mark.PRE_STOP_ENDED);
      assertTrue(ended.failed());
      assertTrue(ended.detail().contains("refused"), ended.detail());
      assertTrue(pods.reasons("prestop-http-closed").contains("FailedPreStopHook"));
    }
  }

  private static Probe probe(String script) {
    return new ProbeBuilder().withNewExec().withCommand("sh", "-c", script).endExec().withPeriodSeconds(1)
        .withFailureThreshold(2).build();
  }

  private static Pod probed(String name, String script, Probe readiness, Probe liveness) {
    return new PodBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec()
        .withTerminationGracePeriodSeconds(1L).addNewContainer().withName("app").withImage("debian:12")
        .withCommand("sh", "-c", script).withReadinessProbe(readiness).withLivenessProbe(liveness).endContainer()
        .endSpec().build();
  }

  private static boolean ready(Pod p) {
    return p.getStatus() != null && p.getStatus().getConditions() != null && p.getStatus().getConditions().stream()
        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  // prober/worker.go doProbe and status/status_manager.go SetContainerReadiness: Running is not Ready until the
  // readiness probe passes; each failure is an Unhealthy warning (prober/prober.go probe).
  @ParameterizedTest
  @EnumSource(Kind.class)
  void aReadinessProbeKeepsThePodUnreadyUntilItPasses(Kind kind) {
    PodRuns pods = on(kind);
    var client = pods.run.client;
    // The app is ready two seconds after it starts; the probe looks every second.
    client.pods().resource(probed("slow-start", "trap 'exit 0' TERM; sleep 2; touch /tmp/ready; "
        + "while :; do sleep 0.1; done", probe("test -f /tmp/ready"), null)).create();
    Pod running = client.pods().withName("slow-start").waitUntilCondition(
        p -> p.getStatus() != null && "Running".equals(p.getStatus().getPhase()), 60, TimeUnit.SECONDS);
    assertFalse(ready(running), "Running is not Ready while the probe fails");
    Pod ready = client.pods().withName("slow-start").waitUntilCondition(KubeletScenariosTest::ready, 60,
        TimeUnit.SECONDS);
    assertTrue(ready.getStatus().getContainerStatuses().get(0).getReady());
    assertTrue(pods.events("slow-start").stream().anyMatch(e -> "Unhealthy".equals(e.getReason())
        && e.getMessage().startsWith("Readiness probe failed: ")), pods.events("slow-start").toString());
    client.pods().withName("slow-start").delete();
  }

  // kuberuntime_manager.go computePodActions: a container failing its liveness probe is killed
  // ("Container app failed liveness probe, will be restarted") and restarted.
  @ParameterizedTest
  @EnumSource(Kind.class)
  void aFailingLivenessProbeRestartsTheContainerWithTheKubeletsWords(Kind kind) {
    PodRuns pods = on(kind);
    var client = pods.run.client;
    client.pods().resource(probed("not-alive", "trap 'exit 0' TERM; while :; do sleep 0.1; done", null,
        probe("false"))).create();
    Pod restarted = client.pods().withName("not-alive").waitUntilCondition(p -> !PodRuns.statuses(p).isEmpty()
        && PodRuns.statuses(p).get(0).getRestartCount() >= 1, 60, TimeUnit.SECONDS);
    assertEquals("Running", restarted.getStatus().getPhase());
    assertTrue(pods.events("not-alive").stream().anyMatch(e -> "Killing".equals(e.getReason())
        && "Container app failed liveness probe, will be restarted".equals(e.getMessage())),
        pods.events("not-alive").toString());
    // The report's timeline has the failures and the kill they caused.
    List<Timeline.Entry> marks = pods.run.agent.timeline().of(restarted.getMetadata().getNamespace() + "/not-alive");
    assertTrue(marks.stream().anyMatch(e -> e.mark() == Timeline.Mark.PROBE_FAILED
        && e.detail().startsWith("Liveness probe failed: ")), marks.toString());
    assertTrue(marks.stream().anyMatch(e -> e.mark() == Timeline.Mark.PROBE_KILL
        && e.detail().equals("Container app failed liveness probe, will be restarted")), marks.toString());
    client.pods().withName("not-alive").delete();
  }

  // kuberuntime_manager.go doBackOff over client-go's flowcontrol.Backoff, at the kubelet's own 10 s: a
  // container's first restart comes at once, the next after 10 s, then 20 s, each counted from its exit; only the
  // waits show CrashLoopBackOff and a BackOff event.
  @ParameterizedTest
  @EnumSource(Kind.class)
  void restartsComeAtOnceThenAfterTenThenTwentySeconds(Kind kind) throws Exception {
    PodRuns pods = on(kind);
    List<String> waits = new CopyOnWriteArrayList<>();
    List<String> shown = new CopyOnWriteArrayList<>();
    // Each run prints when it started (ms since the epoch) and counts itself in the pod's emptyDir; the fourth
    // run succeeds.
    String script = "echo start $(($(date +%s%N) / 1000000)); echo x >> /tmp/state/runs; "
        + "[ $(wc -l < /tmp/state/runs) -ge 4 ]";
    Pod pod = new PodBuilder().withNewMetadata().withName("loop").endMetadata().withNewSpec()
        .withRestartPolicy("OnFailure").withTerminationGracePeriodSeconds(1L)
        .addNewContainer().withName("app").withImage("debian:12").withCommand("sh", "-c", script)
        .addNewVolumeMount().withName("state").withMountPath("/tmp/state").endVolumeMount().endContainer()
        .addNewVolume().withName("state").withNewEmptyDir().endEmptyDir().endVolume().endSpec().build();
    pods.run.agent.restartBackoff(NodeAgent.DEFAULT_RESTART_BACKOFF);
    try (History history = pods.watch("loop")) {
      pods.run.client.pods().resource(pod).create();
      Pod done = history.await(p -> p.getStatus() != null && "Succeeded".equals(p.getStatus().getPhase()), 180_000);
      assertEquals(3, done.getStatus().getContainerStatuses().get(0).getRestartCount());
      for (Pod p : history.seen) {
        if (PodRuns.statuses(p).isEmpty()) {
          continue;
        }
        ContainerStatus s = PodRuns.statuses(p).get(0);
        ContainerStateWaiting w = s.getState().getWaiting();
        shown.add(s.getRestartCount() + " " + (w != null ? w.getReason()
            : s.getState().getTerminated() != null ? "terminated" : "running"));
        if (w != null && "CrashLoopBackOff".equals(w.getReason())) {
          waits.add(w.getMessage().replaceAll(" pod=.*", ""));
        }
      }
    } finally {
      pods.run.agent.restartBackoff(RunFixture.SHORT_BACKOFF);
    }
    long[] starts = pods.run.agent.log(pods.run.cluster.namespace(), "loop", "app").text().lines()
        .filter(l -> l.startsWith("start ")).mapToLong(l -> Long.parseLong(l.substring(6))).toArray();
    assertEquals(4, starts.length, "one start line per run");
    long first = starts[1] - starts[0];
    long second = starts[2] - starts[1];
    long third = starts[3] - starts[2];
    String gaps = "gaps between runs: " + first + ", " + second + ", " + third + " ms; statuses " + shown;
    // A back-off is counted from the exit, so it is the least a gap can be; at once means well under it.
    assertTrue(first < 5_000, gaps);
    assertTrue(second >= 10_000 && second < third, gaps);
    assertTrue(third >= 20_000, gaps);
    assertEquals(List.of("back-off 10s restarting failed container=app",
        "back-off 20s restarting failed container=app"), waits.stream().distinct().toList(), gaps);
    assertEquals(2, pods.reasons("loop").stream().filter("BackOff"::equals).count(), pods.reasons("loop").toString());
    assertTrue(shown.contains("0 terminated"), "the first run's end shows before the restart: " + shown);
  }
}
