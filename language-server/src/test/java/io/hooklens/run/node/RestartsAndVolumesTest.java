package io.hooklens.run.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hooklens.run.RunFixture;
import io.hooklens.run.cluster.EmbeddedCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Container restarts per restartPolicy, the pod's active deadline, and emptyDir and hostPath volumes. */
@Tag("slow")
class RestartsAndVolumesTest {
  private static EmbeddedCluster cluster;
  private static NodeAgent agent;
  private static KubernetesClient client;

  @BeforeAll
  static void start() {
    cluster = EmbeddedCluster.start();
    client = cluster.client();
    agent = NodeAgent.start(client).restartBackoff(Duration.ofMillis(200));
    assertTrue(agent.isolated(), "bubblewrap must be installed (run-tests installs it)");
  }

  @AfterAll
  static void stop() {
    agent.close();
    cluster.close();
  }

  private static PodBuilder pod(String name, String restartPolicy, String script) {
    return new PodBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec()
        .withRestartPolicy(restartPolicy).withTerminationGracePeriodSeconds(1L)
        .addNewContainer().withName("app").withImage("debian:12").withCommand("sh", "-c", script)
        .addNewVolumeMount().withName("state").withMountPath("/tmp/state").endVolumeMount()
        .endContainer().addNewVolume().withName("state").withNewEmptyDir().endEmptyDir().endVolume().endSpec();
  }

  private static Pod await(String name, Predicate<Pod> condition, long millis) throws InterruptedException {
    long deadline = System.currentTimeMillis() + millis;
    Pod pod = null;
    while (System.currentTimeMillis() < deadline) {
      pod = client.pods().withName(name).get();
      if (pod != null && condition.test(pod)) {
        return pod;
      }
      Thread.sleep(20);
    }
    fail("pod " + name + " never reached the expected state: " + (pod == null ? null : pod.getStatus())
        + "; node timeline: " + agent.timeline().of("default/" + name));
    return null;
  }

  private static boolean phase(Pod pod, String phase) {
    return pod.getStatus() != null && phase.equals(pod.getStatus().getPhase());
  }

  private static List<String> reasons(String pod) {
    return client.v1().events().list().getItems().stream()
        .filter(e -> pod.equals(e.getInvolvedObject().getName())).map(e -> e.getReason()).toList();
  }

  @Test
  void onFailureRestartsTheContainerInTheSamePodUntilItSucceeds() throws InterruptedException {
    // The counter lives in the pod's emptyDir, which survives restarts; the third run succeeds.
    String script = "n=$(cat /tmp/state/n 2>/dev/null || echo 0); n=$((n+1)); echo $n > /tmp/state/n; "
        + "echo run $n; [ $n -ge 3 ]";
    client.pods().resource(pod("retries", "OnFailure", script).build()).create();
    Pod done = await("retries", p -> phase(p, "Succeeded"), 15_000);
    ContainerStatus status = done.getStatus().getContainerStatuses().get(0);
    assertEquals(2, status.getRestartCount());
    assertEquals(0, status.getState().getTerminated().getExitCode());
    assertEquals(1, status.getLastState().getTerminated().getExitCode());
    assertEquals("run 1\nrun 2\nrun 3\n", agent.log("default", "retries", "app").text());
    // The first restart comes at once; only the second waits in a back-off.
    assertEquals(1, reasons("retries").stream().filter("BackOff"::equals).count());
    client.pods().withName("retries").delete();
  }

  @Test
  void alwaysRestartsEvenAfterSuccessAndTheLoopEndsOnDeletion() throws InterruptedException {
    client.pods().resource(pod("always", "Always", "exit 0").build()).create();
    Pod looping = await("always", p -> p.getStatus() != null && p.getStatus().getContainerStatuses() != null
        && p.getStatus().getContainerStatuses().get(0).getRestartCount() >= 1, 10_000);
    assertEquals("Running", looping.getStatus().getPhase());
    client.pods().withName("always").delete();
    awaitGone("always");
  }

  @Test
  void neverLeavesAFailedContainerFailed() throws InterruptedException {
    client.pods().resource(pod("never", "Never", "exit 3").build()).create();
    Pod done = await("never", p -> phase(p, "Failed"), 10_000);
    assertEquals(0, done.getStatus().getContainerStatuses().get(0).getRestartCount());
    assertEquals(3, done.getStatus().getContainerStatuses().get(0).getState().getTerminated().getExitCode());
    assertFalse(reasons("never").contains("BackOff"));
    client.pods().withName("never").delete();
  }

  @Test
  void thePodsActiveDeadlineKillsItAndFailsIt() throws InterruptedException {
    Pod pod = pod("deadline", "OnFailure", "trap 'exit 0' TERM; while :; do sleep 0.05; done").editSpec()
        .withActiveDeadlineSeconds(1L).endSpec().build();
    client.pods().resource(pod).create();
    Pod done = await("deadline", p -> phase(p, "Failed"), 10_000);
    assertEquals("DeadlineExceeded", done.getStatus().getReason());
    assertTrue(reasons("deadline").contains("DeadlineExceeded"), reasons("deadline").toString());
    assertTrue(agent.timeline().first("default/deadline", "app", Timeline.Mark.STOP_SIGNAL).isPresent());
    assertEquals(0, done.getStatus().getContainerStatuses().get(0).getState().getTerminated().getExitCode(),
        "stopped by SIGTERM, not restarted");
    assertNotNull(client.pods().withName("deadline").get(), "the pod object stays");
    client.pods().withName("deadline").delete();
  }

  @Test
  void aHostPathIsReadOnlyUnlessTheMountSaysOtherwise(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("in"), "from the host\n");
    RunFixture.openToSandbox(dir, true);
    String script = "cat /tmp/host/in; echo no > /tmp/host/ro-write || echo denied; echo yes > /tmp/rw/out";
    Pod pod = new PodBuilder().withNewMetadata().withName("hostpath").endMetadata().withNewSpec()
        .withRestartPolicy("Never").addNewContainer().withName("app").withImage("debian:12")
        .withCommand("sh", "-c", script)
        .addNewVolumeMount().withName("host").withMountPath("/tmp/host").endVolumeMount()
        .addNewVolumeMount().withName("host").withMountPath("/tmp/rw").withReadOnly(false).endVolumeMount()
        .endContainer()
        .addNewVolume().withName("host").withNewHostPath().withPath(dir.toString()).endHostPath().endVolume()
        .endSpec().build();
    client.pods().resource(pod).create();
    await("hostpath", p -> phase(p, "Succeeded"), 10_000);
    String log = agent.log("default", "hostpath", "app").text();
    assertTrue(log.startsWith("from the host\n"), log);
    assertTrue(log.endsWith("denied\n"), log);
    assertFalse(Files.exists(dir.resolve("ro-write")));
    assertEquals("yes\n", Files.readString(dir.resolve("out")));
    client.pods().withName("hostpath").delete();
  }

  @Test
  void aVolumeMountsAtANewTopLevelDirectoryWhileTheRootStaysReadOnly() throws InterruptedException {
    Pod pod = new PodBuilder(pod("toplevel", "Never",
        "echo kept > /hooklens-state/file && cat /hooklens-state/file && ! touch /elsewhere 2>/dev/null").build())
        .editSpec().editFirstContainer().editFirstVolumeMount().withMountPath("/hooklens-state").endVolumeMount()
        .endContainer().endSpec().build();
    client.pods().resource(pod).create();
    Pod done = await("toplevel", p -> phase(p, "Succeeded") || phase(p, "Failed"), 10_000);
    assertEquals("Succeeded", done.getStatus().getPhase(), agent.timeline().of("default/toplevel").toString());
    assertEquals("kept\n", agent.log("default", "toplevel", "app").text());
    client.pods().withName("toplevel").delete();
  }

  @Test
  void aMountPointInsideAReadOnlyDirectoryOfTheRootThatLacksItIsAStartError() throws InterruptedException {
    Pod pod = new PodBuilder(pod("nomount", "Never", "true").build()).editSpec().editFirstContainer()
        .editFirstVolumeMount().withMountPath("/usr/hooklens-missing/state").endVolumeMount().endContainer().endSpec()
        .build();
    client.pods().resource(pod).create();
    Pod done = await("nomount", p -> phase(p, "Failed"), 10_000);
    String message = done.getStatus().getContainerStatuses().get(0).getState().getTerminated().getMessage();
    assertTrue(message.contains("/usr/hooklens-missing/state"), message);
    client.pods().withName("nomount").delete();
  }

  private static void awaitGone(String name) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 10_000;
    while (client.pods().withName(name).get() != null) {
      if (System.currentTimeMillis() > deadline) {
        fail(name + " was never removed");
      }
      Thread.sleep(20);
    }
  }
}
