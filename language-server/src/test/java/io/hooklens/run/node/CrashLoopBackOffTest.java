package io.hooklens.run.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.hooklens.run.cluster.EmbeddedCluster;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The kubelet's crash-loop back-off at its own 10 s (kuberuntime_manager.go {@code doBackOff} over client-go's
 * {@code flowcontrol.Backoff}): a container's first restart comes at once, the next after 10 s, then 20 s, each
 * counted from its exit; only the waits show {@code CrashLoopBackOff} and a {@code BackOff} event.
 */
@Tag("slow")
class CrashLoopBackOffTest {
  @Test
  void restartsComeAtOnceThenAfterTenThenTwentySeconds() throws Exception {
    List<String> waits = new CopyOnWriteArrayList<>();
    List<String> shown = new CopyOnWriteArrayList<>();
    try (EmbeddedCluster cluster = EmbeddedCluster.start(); NodeAgent agent = NodeAgent.start(cluster.client())) {
      KubernetesClient client = cluster.client();
      // Each run prints when it started (ms since the epoch) and counts itself in the pod's emptyDir; the
      // fourth run succeeds.
      String script = "echo start $(($(date +%s%N) / 1000000)); echo x >> /tmp/state/runs; "
          + "[ $(wc -l < /tmp/state/runs) -ge 4 ]";
      Pod pod = new PodBuilder().withNewMetadata().withName("loop").endMetadata().withNewSpec()
          .withRestartPolicy("OnFailure").withTerminationGracePeriodSeconds(1L)
          .addNewContainer().withName("app").withImage("debian:12").withCommand("sh", "-c", script)
          .addNewVolumeMount().withName("state").withMountPath("/tmp/state").endVolumeMount().endContainer()
          .addNewVolume().withName("state").withNewEmptyDir().endEmptyDir().endVolume().endSpec().build();
      try (Watch watch = client.pods().withName("loop").watch(new Watcher<>() {
        @Override
        public void eventReceived(Action action, Pod p) {
          if (p.getStatus() == null || p.getStatus().getContainerStatuses() == null) {
            return;
          }
          ContainerStatus s = p.getStatus().getContainerStatuses().get(0);
          ContainerStateWaiting w = s.getState().getWaiting();
          shown.add(s.getRestartCount() + " " + (w != null ? w.getReason()
              : s.getState().getTerminated() != null ? "terminated" : "running"));
          if (w != null && "CrashLoopBackOff".equals(w.getReason())) {
            waits.add(w.getMessage().replaceAll(" pod=.*", ""));
          }
        }

        @Override
        public void onClose(WatcherException cause) {}
      })) {
        client.pods().resource(pod).create();
        Pod done = client.pods().withName("loop").waitUntilCondition(
            p -> p.getStatus() != null && "Succeeded".equals(p.getStatus().getPhase()), 180, TimeUnit.SECONDS);
        assertEquals(3, done.getStatus().getContainerStatuses().get(0).getRestartCount());
      }
      long[] starts = agent.log("default", "loop", "app").text().lines().filter(l -> l.startsWith("start "))
          .mapToLong(l -> Long.parseLong(l.substring(6))).toArray();
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
      List<String> reasons = client.v1().events().list().getItems().stream()
          .filter(e -> "loop".equals(e.getInvolvedObject().getName())).map(e -> e.getReason()).toList();
      assertEquals(2, reasons.stream().filter("BackOff"::equals).count(), reasons.toString());
      assertTrue(shown.contains("0 terminated"), "the first run's end shows before the restart: " + shown);
    }
  }
}
