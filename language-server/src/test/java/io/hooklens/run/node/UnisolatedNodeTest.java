package io.hooklens.run.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.hooklens.run.cluster.EmbeddedCluster;
import io.hooklens.run.node.Timeline.Mark;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Without bubblewrap: plain process groups, and a container's children still go with it. */
@Tag("slow")
class UnisolatedNodeTest {
  private static final String CHILD_SECONDS = "987";

  @Test
  void aContainersChildrenDieWithItsMainProcess() throws InterruptedException {
    try (EmbeddedCluster cluster = EmbeddedCluster.start();
        NodeAgent agent = NodeAgent.startUnisolated(cluster.client())) {
      assertFalse(agent.isolated());
      Pod pod = new PodBuilder().withNewMetadata().withName("plain").endMetadata().withNewSpec()
          .withTerminationGracePeriodSeconds(2L).addNewContainer().withName("app").withImage("debian:12")
          .withCommand("sh", "-c", "sleep " + CHILD_SECONDS + " & wait")
          .withNewLifecycle().withNewPreStop().withNewExec().withCommand("sh", "-c", "echo $HOSTNAME").endExec()
          .endPreStop().endLifecycle().endContainer().endSpec().build();
      cluster.client().pods().resource(pod).create();
      awaitMark(agent, Mark.RUNNING);
      // Running is the shell's start; its child comes a moment later.
      long started = System.currentTimeMillis() + 10_000;
      while (!childRuns() && System.currentTimeMillis() < started) {
        Thread.sleep(20);
      }
      assertTrue(childRuns(), "the container's child started");
      cluster.client().pods().withName("plain").delete();
      awaitMark(agent, Mark.EXITED);
      assertEquals("plain\n", agent.timeline().first("default/plain", "app", Mark.PRE_STOP_ENDED).orElseThrow()
          .output());
      // The node marks the exit only once the container's process group is gone.
      assertFalse(childRuns(), "the container's child outlived it");
    }
  }

  private static void awaitMark(NodeAgent agent, Mark mark) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 10_000;
    while (agent.timeline().first("default/plain", "app", mark).isEmpty()) {
      assertTrue(System.currentTimeMillis() < deadline, mark + " never came: " + agent.timeline().entries());
      Thread.sleep(20);
    }
  }

  private static boolean childRuns() {
    return ProcessHandle.allProcesses().anyMatch(p -> p.info().command().orElse("").endsWith("sleep")
        && p.info().arguments().map(List::of).orElse(List.of()).contains(CHILD_SECONDS));
  }
}
