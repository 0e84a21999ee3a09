package io.hooklens.run.node;

import static io.hooklens.run.node.PodRuns.STOPS_ON_TERM;
import static io.hooklens.run.node.PodRuns.exec;
import static io.hooklens.run.node.PodRuns.pod;
import static io.hooklens.run.node.PodRuns.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.hooklens.run.RunFixture;
import io.hooklens.run.kube.BoundedOutput;
import io.hooklens.run.node.PodRuns.History;
import io.hooklens.run.node.Timeline.Entry;
import io.hooklens.run.node.Timeline.Mark;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The node agent with real processes in bubblewrap: each test creates a pod through the fabric8 client,
 * deletes it as a user would, and reads events and status from the API; signal times come from the agent's
 * timeline. What the kubelet does with hooks, probes and restarts is in {@link KubeletScenariosTest}, on both
 * clusters.
 */
@Tag("slow")
class NodeAgentTest {
  private static RunFixture run;
  private static PodRuns pods;

  @BeforeAll
  static void start() {
    run = new RunFixture();
    pods = new PodRuns(run);
  }

  @AfterAll
  static void stop() {
    run.close();
  }

  @Test
  void aPreStopThatSucceedsRunsBeforeSigterm() throws InterruptedException {
    try (History history = pods.runAndDelete(pod("prestop-ok", 3, STOPS_ON_TERM, null,
        exec("sh", "-c", "echo $GREETING from prestop")))) {
      Entry ended = pods.mark("prestop-ok", Mark.PRE_STOP_ENDED);
      assertFalse(ended.failed(), ended.detail());
      assertEquals("hello from prestop\n", ended.output());
      assertTrue(pods.mark("prestop-ok", Mark.STOP_SIGNAL).nanos() >= ended.nanos());
      assertFalse(pods.has("prestop-ok", Mark.SIGKILL));
      assertEquals(0, history.last().getState().getTerminated().getExitCode());
      assertEquals(List.of("Scheduled", "Created", "Started", "Killing"), pods.reasons("prestop-ok"));
    }
  }

  @Test
  void aSleepHookWaitsInTheNode() throws InterruptedException {
    try (History history = pods.runAndDelete(pod("prestop-sleep", 3, STOPS_ON_TERM, null, sleep(1)))) {
      Entry started = pods.mark("prestop-sleep", Mark.PRE_STOP_STARTED);
      pods.assertAfter(started, pods.mark("prestop-sleep", Mark.STOP_SIGNAL), 1);
      assertFalse(pods.reasons("prestop-sleep").contains("FailedPreStopHook"));
      assertEquals(0, history.last().getState().getTerminated().getExitCode());
    }
  }

  @Test
  void aHookCannotWriteOutsideItsSandbox() throws InterruptedException {
    Path target = Path.of("/usr/hooklens-escape-" + ProcessHandle.current().pid());
    try (History history = pods.runAndDelete(pod("escape-write", 2, STOPS_ON_TERM, null,
        exec("sh", "-c", "echo x > " + target + " && echo WROTE")))) {
      Entry ended = pods.mark("escape-write", Mark.PRE_STOP_ENDED);
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
      try (History history = pods.runAndDelete(pod("escape-net", 2, STOPS_ON_TERM, null,
          exec("bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/" + port + " && echo CONNECTED")))) {
        Entry ended = pods.mark("escape-net", Mark.PRE_STOP_ENDED);
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
    try (History history = pods.watch("chatty")) {
      run.client.pods().resource(pod).create();
      history.await(PodRuns::running, 20_000);
      long deadline = System.nanoTime() + 20_000_000_000L;
      while (!run.agent.log("default", "chatty", "app").text().endsWith("app end\n") && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      BoundedOutput.Tail log = run.agent.log("default", "chatty", "app");
      assertEquals(BoundedOutput.KEPT_BYTES, log.text().length());
      assertTrue(log.text().endsWith("xxx\napp end\n"), log.text().substring(log.text().length() - 20));
      assertEquals(10_485_760 + "\napp end\n".length() - BoundedOutput.KEPT_BYTES, log.droppedBytes());
      run.client.pods().withName("chatty").delete();
      history.awaitDeleted(20_000);

      Entry ended = pods.mark("chatty", Mark.PRE_STOP_ENDED);
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
    try (History history = pods.runAndDelete(pod)) {
      assertTrue(pods.mark("env-from", Mark.WARNING).detail().contains("MEMORY"));
      assertEquals("unset\n", pods.mark("env-from", Mark.PRE_STOP_ENDED).output());
      assertTrue(Objects.nonNull(history.last()));
    }
  }
}
