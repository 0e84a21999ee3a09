package io.hooklens.run.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hooklens.run.RunFixture;
import io.hooklens.run.node.Timeline.Mark;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Init containers as the kubelet runs them, with real processes: in order and to completion before the app
 * containers, a failure that fails the pod under Never or is retried otherwise, and sidecars
 * ({@code restartPolicy: Always}) that start first, run beside the app and are stopped once it is done.
 */
@Tag("slow")
class InitContainersTest {
  private static RunFixture run;
  private static KubernetesClient client;

  @BeforeAll
  static void start() {
    run = new RunFixture();
    client = run.client;
  }

  @AfterAll
  static void stop() {
    run.close();
  }

  private static Container container(String name, String script) {
    return new ContainerBuilder().withName(name).withImage("debian:12").withCommand("sh", "-c", script)
        .addNewVolumeMount().withName("shared").withMountPath("/shared").endVolumeMount().build();
  }

  private static Pod pod(String name, String restartPolicy, List<Container> inits, Container app) {
    return new PodBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec()
        .withRestartPolicy(restartPolicy).withTerminationGracePeriodSeconds(2L).withInitContainers(inits)
        .withContainers(app).addNewVolume().withName("shared").withNewEmptyDir().endEmptyDir().endVolume().endSpec()
        .build();
  }

  private static Pod await(String name, Predicate<Pod> condition) throws InterruptedException {
    return run.await("pod " + name + " in the expected state", () -> {
      Pod pod = client.pods().withName(name).get();
      return pod != null && condition.test(pod) ? pod : null;
    }, 20_000);
  }

  private static boolean phase(Pod pod, String phase) {
    return pod.getStatus() != null && phase.equals(pod.getStatus().getPhase());
  }

  private static List<Timeline.Entry> entries(String pod, String container, Mark mark) {
    return run.agent.timeline().of("default/" + pod).stream()
        .filter(e -> container.equals(e.container()) && e.mark() == mark).toList();
  }

  @Test
  void initContainersRunInOrderToCompletionBeforeTheAppStarts() throws InterruptedException {
    client.pods().resource(pod("ordered", "Never", List.of(
        container("first", "sleep 0.3; echo first > /shared/log"),
        container("second", "echo second >> /shared/log")),
        container("app", "cat /shared/log"))).create();
    Pod done = await("ordered", p -> phase(p, "Succeeded") || phase(p, "Failed"));
    assertEquals("Succeeded", done.getStatus().getPhase(), run.agent.timeline().of("default/ordered").toString());
    assertEquals("first\nsecond\n", run.agent.log("default", "ordered", "app").text());
    long firstExit = entries("ordered", "first", Mark.EXITED).get(0).nanos();
    long secondStart = entries("ordered", "second", Mark.CONTAINER_STARTED).get(0).nanos();
    long appStart = entries("ordered", "app", Mark.CONTAINER_STARTED).get(0).nanos();
    assertTrue(firstExit <= secondStart && secondStart < appStart, "one after the other, then the app");
    List<ContainerStatus> inits = done.getStatus().getInitContainerStatuses();
    assertEquals(List.of("first", "second"), inits.stream().map(ContainerStatus::getName).toList());
    assertEquals(0, inits.get(1).getState().getTerminated().getExitCode());
  }

  @Test
  void aFailedInitContainerFailsThePodUnderNeverAndTheAppNeverStarts() throws InterruptedException {
    client.pods().resource(pod("broken", "Never", List.of(container("migrate", "echo no database; exit 3")),
        container("app", "echo should not run"))).create();
    Pod done = await("broken", p -> phase(p, "Failed"));
    assertEquals(3, done.getStatus().getInitContainerStatuses().get(0).getState().getTerminated().getExitCode());
    assertEquals("False", done.getStatus().getConditions().stream().filter(c -> "Initialized".equals(c.getType()))
        .findFirst().orElseThrow().getStatus());
    assertEquals(List.of(), entries("broken", "app", Mark.CONTAINER_STARTED), "the app never started");
    assertEquals("PodInitializing", done.getStatus().getContainerStatuses().get(0).getState().getWaiting()
        .getReason());
  }

  @Test
  void aFailedInitContainerIsRetriedUnderOnFailureUntilItSucceeds() throws InterruptedException {
    client.pods().resource(pod("retried", "OnFailure", List.of(container("wait",
        "n=$(($(cat /shared/n 2>/dev/null || echo 0) + 1)); echo $n > /shared/n; echo try $n; [ $n -ge 3 ]")),
        container("app", "echo started after $(cat /shared/n) tries"))).create();
    Pod done = await("retried", p -> phase(p, "Succeeded") || phase(p, "Failed"));
    assertEquals("Succeeded", done.getStatus().getPhase());
    assertEquals(2, done.getStatus().getInitContainerStatuses().get(0).getRestartCount());
    assertEquals("started after 3 tries\n", run.agent.log("default", "retried", "app").text());
    assertEquals("try 1\ntry 2\ntry 3\n", run.agent.log("default", "retried", "wait").text());
  }

  @Test
  void aJobWithASidecarCompletesOnceItsAppIsDoneAndTheSidecarIsStoppedAfterIt() throws InterruptedException {
    Container sidecar = new ContainerBuilder(container("proxy",
        "trap 'echo proxy stopped >> /shared/log; exit 0' TERM; while true; do sleep 0.1; done"))
        .withRestartPolicy("Always").withNewLifecycle().withNewPostStart().withNewExec()
        .withCommand("sh", "-c", "echo proxy ready > /shared/log").endExec().endPostStart().endLifecycle().build();
    Job job = new JobBuilder().withNewMetadata().withName("with-sidecar").endMetadata().withNewSpec()
        .withBackoffLimit(0).withNewTemplate().withSpec(pod("x", "Never", List.of(sidecar),
            container("app", "cat /shared/log; echo app done >> /shared/log")).getSpec()).endTemplate().endSpec()
        .build();
    client.batch().v1().jobs().resource(job).create();
    run.await("job complete", () -> {
      Job j = client.batch().v1().jobs().withName("with-sidecar").get();
      return j.getStatus() != null && j.getStatus().getSucceeded() != null && j.getStatus().getSucceeded() == 1
          ? j : null;
    }, 20_000);
    Pod pod = client.pods().withLabel("job-name", "with-sidecar").list().getItems().get(0);
    String name = pod.getMetadata().getName();
    assertEquals("proxy ready\n", run.agent.log("default", name, "app").text(), "the sidecar's postStart ran first");
    long appExit = entries(name, "app", Mark.EXITED).get(0).nanos();
    Timeline.Entry term = run.await("the sidecar stopped", () -> entries(name, "proxy", Mark.STOP_SIGNAL).stream()
        .findFirst().orElse(null), 10_000);
    assertTrue(term.nanos() >= appExit, "the sidecar is stopped after the app is done");
  }
}
