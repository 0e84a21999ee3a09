package io.hooklens.run.controllers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.hooklens.run.RunFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Job controller with real pods on the node agent, read back through the fabric8 client. */
@Tag("slow")
class JobControllerTest {
  private static RunFixture run;

  @BeforeAll
  static void start() {
    run = new RunFixture();
  }

  @AfterAll
  static void stop() {
    run.close();
  }

  static JobBuilder job(String name, String script) {
    return new JobBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec().withNewTemplate()
        .withNewSpec().withRestartPolicy("Never").withTerminationGracePeriodSeconds(1L)
        .addNewContainer().withName("main").withImage("debian:12").withCommand("sh", "-c", script).endContainer()
        .endSpec().endTemplate().endSpec();
  }

  private JobCondition finished(String name) throws InterruptedException {
    return run.await(name + " finished", () -> {
      Job job = run.client.batch().v1().jobs().withName(name).get();
      return job == null || job.getStatus() == null || job.getStatus().getConditions() == null ? null
          : job.getStatus().getConditions().stream().filter(c -> "True".equals(c.getStatus())).findFirst()
              .orElse(null);
    }, 20_000);
  }

  private List<Pod> pods(String job) {
    return run.client.pods().withLabel("job-name", job).list().getItems();
  }

  @Test
  void aJobRunsOnePodToCompletion() throws InterruptedException {
    run.client.batch().v1().jobs().resource(job("succeeds", "echo done").build()).create();
    JobCondition condition = finished("succeeds");
    assertEquals("Complete", condition.getType());
    Job job = run.client.batch().v1().jobs().withName("succeeds").get();
    assertEquals(1, job.getStatus().getSucceeded());
    assertEquals(0, job.getStatus().getActive());
    List<Pod> pods = pods("succeeds");
    assertEquals(1, pods.size());
    Pod pod = pods.get(0);
    assertEquals("Succeeded", pod.getStatus().getPhase());
    assertEquals(job.getMetadata().getUid(), pod.getMetadata().getOwnerReferences().get(0).getUid());
    assertEquals("done\n", run.agent.log("default", pod.getMetadata().getName(), "main").text());
    assertEquals(List.of("SuccessfulCreate: Created pod: " + pod.getMetadata().getName(), "Completed: Job completed"),
        run.eventsUntil("Job", "succeeds", "Completed"));
  }

  @Test
  void aFailedPodIsReplacedUntilTheBackoffLimit() throws InterruptedException {
    run.client.batch().v1().jobs().resource(job("gives-up", "exit 2").editSpec().withBackoffLimit(2).endSpec()
        .build()).create();
    JobCondition condition = finished("gives-up");
    assertEquals("Failed", condition.getType());
    assertEquals("BackoffLimitExceeded", condition.getReason());
    assertEquals(3, run.client.batch().v1().jobs().withName("gives-up").get().getStatus().getFailed());
    assertEquals(3, pods("gives-up").stream().filter(p -> "Failed".equals(p.getStatus().getPhase())).count());
    List<String> events = run.eventsUntil("Job", "gives-up", "BackoffLimitExceeded");
    assertEquals(3, events.stream().filter(e -> e.startsWith("SuccessfulCreate")).count(), events.toString());
    assertEquals("BackoffLimitExceeded: Job has reached the specified backoff limit", events.get(events.size() - 1));
  }

  @Test
  void aNewPodAfterAFailureCanSucceed(@TempDir Path dir) throws Exception {
    // Each pod is new, so the count of tries lives on the host, in a hostPath mounted writable.
    String script = "echo try >> /tmp/tries/log; [ $(wc -l < /tmp/tries/log) -ge 2 ]";
    Job job = job("second-try", script).editSpec().withBackoffLimit(3).editTemplate().editSpec()
        .editFirstContainer().addNewVolumeMount().withName("tries").withMountPath("/tmp/tries").withReadOnly(false)
        .endVolumeMount().endContainer()
        .addNewVolume().withName("tries").withNewHostPath().withPath(dir.toString()).endHostPath().endVolume()
        .endSpec().endTemplate().endSpec().build();
    RunFixture.openToSandbox(dir, true);
    run.client.batch().v1().jobs().resource(job).create();
    assertEquals("Complete", finished("second-try").getType());
    Job done = run.client.batch().v1().jobs().withName("second-try").get();
    assertEquals(1, done.getStatus().getFailed());
    assertEquals(1, done.getStatus().getSucceeded());
    assertEquals(2, pods("second-try").size());
    assertEquals(2, Files.readAllLines(dir.resolve("log")).size());
  }

  @Test
  void theActiveDeadlineKillsTheRunningPodAndFailsTheJob() throws InterruptedException {
    run.client.batch().v1().jobs().resource(job("too-slow", "trap 'exit 0' TERM; while :; do sleep 0.05; done")
        .editSpec().withActiveDeadlineSeconds(1L).endSpec().build()).create();
    JobCondition condition = finished("too-slow");
    assertEquals("Failed", condition.getType());
    assertEquals("DeadlineExceeded", condition.getReason());
    run.await("the pod removed", () -> pods("too-slow").isEmpty() ? true : null, 10_000);
    List<String> events = run.eventsUntil("Job", "too-slow", "DeadlineExceeded");
    assertTrue(events.get(events.size() - 1).startsWith("DeadlineExceeded: Job was active longer"), events.toString());
    assertTrue(events.stream().anyMatch(e -> e.startsWith("SuccessfulDelete")), events.toString());
  }

  @Test
  void deletingAJobDeletesItsPods() throws InterruptedException {
    run.client.batch().v1().jobs().resource(job("deleted", "sleep 30").build()).create();
    run.await("a running pod", () -> pods("deleted").stream().filter(p -> p.getStatus() != null
        && "Running".equals(p.getStatus().getPhase())).findFirst().orElse(null), 10_000);
    run.client.batch().v1().jobs().withName("deleted").delete();
    run.await("the pod removed", () -> pods("deleted").isEmpty() ? true : null, 10_000);
    assertNull(run.client.batch().v1().jobs().withName("deleted").get());
  }
}
