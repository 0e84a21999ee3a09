package io.hooklens.run.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.hooklens.run.RunFixture;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The kubelet's probes (pkg/kubelet/prober/worker.go): readiness gates Ready, liveness restarts a container. */
@Tag("slow")
class ProbesTest {
  private static RunFixture run;

  @BeforeAll
  static void start() {
    run = new RunFixture();
  }

  @AfterAll
  static void stop() {
    run.close();
  }

  private static Probe exec(String script) {
    return new ProbeBuilder().withNewExec().withCommand("sh", "-c", script).endExec().withPeriodSeconds(1)
        .withFailureThreshold(2).build();
  }

  private static Pod pod(String name, String script, Probe readiness, Probe liveness) {
    return new PodBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec()
        .withTerminationGracePeriodSeconds(1L).addNewContainer().withName("app").withImage("debian:12")
        .withCommand("sh", "-c", script).withReadinessProbe(readiness).withLivenessProbe(liveness).endContainer()
        .endSpec().build();
  }

  private static boolean ready(Pod p) {
    return p.getStatus() != null && p.getStatus().getConditions() != null && p.getStatus().getConditions().stream()
        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  private static List<Event> events(String pod) {
    return run.client.v1().events().list().getItems().stream()
        .filter(e -> pod.equals(e.getInvolvedObject().getName())).toList();
  }

  @Test
  void aReadinessProbeKeepsThePodUnreadyUntilItPasses() {
    // The app is ready two seconds after it starts; the probe looks every second.
    run.client.pods().resource(pod("slow-start", "trap 'exit 0' TERM; sleep 2; touch /tmp/ready; "
        + "while :; do sleep 0.1; done", exec("test -f /tmp/ready"), null)).create();
    Pod running = run.client.pods().withName("slow-start").waitUntilCondition(
        p -> p.getStatus() != null && "Running".equals(p.getStatus().getPhase()), 60, TimeUnit.SECONDS);
    assertFalse(ready(running), "Running is not Ready while the probe fails");
    Pod ready = run.client.pods().withName("slow-start").waitUntilCondition(ProbesTest::ready, 60,
        TimeUnit.SECONDS);
    assertTrue(ready.getStatus().getContainerStatuses().get(0).getReady());
    assertTrue(events("slow-start").stream().anyMatch(e -> "Unhealthy".equals(e.getReason())
        && e.getMessage().startsWith("Readiness probe failed: ")), events("slow-start").toString());
    run.client.pods().withName("slow-start").delete();
  }

  @Test
  void aFailingLivenessProbeRestartsTheContainerWithTheKubeletsWords() {
    run.client.pods().resource(pod("not-alive", "trap 'exit 0' TERM; while :; do sleep 0.1; done", null,
        exec("false"))).create();
    Pod restarted = run.client.pods().withName("not-alive").waitUntilCondition(p -> p.getStatus() != null
        && p.getStatus().getContainerStatuses() != null
        && p.getStatus().getContainerStatuses().get(0).getRestartCount() >= 1, 60, TimeUnit.SECONDS);
    assertEquals("Running", restarted.getStatus().getPhase());
    assertTrue(events("not-alive").stream().anyMatch(e -> "Killing".equals(e.getReason())
        && "Container app failed liveness probe, will be restarted".equals(e.getMessage())),
        events("not-alive").toString());
    run.client.pods().withName("not-alive").delete();
  }
}
