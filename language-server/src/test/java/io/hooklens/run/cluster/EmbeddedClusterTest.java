package io.hooklens.run.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("slow")
public class EmbeddedClusterTest {
  private static final Logger LOG = Logger.getLogger(EmbeddedClusterTest.class.getName());
  private static EmbeddedCluster cluster;

  @BeforeAll
  static void start() {
    long t0 = System.nanoTime();
    cluster = EmbeddedCluster.start();
    LOG.info(() -> "embedded cluster started in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  private static Pod pod(String name, String node) {
    return new PodBuilder().withNewMetadata().withName(name).endMetadata()
        .withNewSpec().withNodeName(node).withTerminationGracePeriodSeconds(7L)
        .addNewContainer().withName("app").withImage("busybox").endContainer().endSpec().build();
  }

  @Test
  void kubectlListsWhatTheClientCreated(@TempDir Path dir) throws Exception {
    KubernetesClient client = cluster.client();
    client.pods().resource(pod("kubectl-pod", null)).create();
    client.batch().v1().jobs().resource(new JobBuilder().withNewMetadata().withName("kubectl-job").endMetadata()
        .withNewSpec().withNewTemplate().withNewSpec().addNewContainer().withName("c").withImage("x").endContainer()
        .endSpec().endTemplate().endSpec().build()).create();
    client.v1().events().resource(new EventBuilder().withNewMetadata().withName("kubectl-pod.1").endMetadata()
        .withNewInvolvedObject().withKind("Pod").withName("kubectl-pod").endInvolvedObject()
        .withReason("Started").withType("Normal").build()).create();
    Path kubeconfig = cluster.writeKubeconfig(dir.resolve("kubeconfig"));

    String out = kubectl(kubeconfig, "get", "pods,jobs,events");

    assertTrue(out.contains("pod/kubectl-pod"), out);
    assertTrue(out.contains("job.batch/kubectl-job"), out);
    assertTrue(out.contains("event/kubectl-pod.1"), out);
    assertTrue(kubectl(kubeconfig, "version").contains(Discovery.KUBERNETES_VERSION));
  }

  @Test
  void kubectlCreatesAndReadsDeploymentConfigs(@TempDir Path dir) throws Exception {
    Path kubeconfig = cluster.writeKubeconfig(dir.resolve("kubeconfig"));
    Path dc = dir.resolve("dc.yaml");
    java.nio.file.Files.writeString(dc, """
        apiVersion: apps.openshift.io/v1
        kind: DeploymentConfig
        metadata:
          name: kubectl-dc
        spec:
          replicas: 1
        """);
    kubectl(kubeconfig, "create", "--validate=false", "-f", dc.toString());
    assertTrue(kubectl(kubeconfig, "get", "deploymentconfigs").contains("kubectl-dc"));
  }

  @Test
  void watchSeesCreationAndDeletion() throws Exception {
    KubernetesClient client = cluster.client();
    BlockingQueue<String> seen = new LinkedBlockingQueue<>();
    try (Watch watch = client.pods().withName("watched").watch(new Watcher<Pod>() {
      @Override
      public void eventReceived(Action action, Pod pod) {
        seen.add(action + " " + pod.getMetadata().getName());
      }

      @Override
      public void onClose(WatcherException cause) {
      }
    })) {
      client.pods().resource(pod("watched", null)).create();
      assertEquals("ADDED watched", seen.poll(5, TimeUnit.SECONDS));
      client.pods().withName("watched").delete();
      assertEquals("DELETED watched", seen.poll(5, TimeUnit.SECONDS));
    }
  }

  @Test
  void aBoundPodIsDeletedGracefullyAndGoesOnlyWithGraceZero() {
    KubernetesClient client = cluster.client();
    client.pods().resource(pod("graceful", "node")).create();

    client.pods().withName("graceful").withGracePeriod(5).delete();
    Pod terminating = client.pods().withName("graceful").get();
    assertNotNull(terminating.getMetadata().getDeletionTimestamp());
    assertEquals(5L, terminating.getMetadata().getDeletionGracePeriodSeconds());

    client.pods().withName("graceful").withGracePeriod(9).delete();
    assertEquals(5L, client.pods().withName("graceful").get().getMetadata().getDeletionGracePeriodSeconds(),
        "a later delete may only shorten the grace period");

    client.pods().withName("graceful").subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"status\":{\"phase\":\"Running\"}}");
    Pod patched = client.pods().withName("graceful").get();
    assertEquals("Running", patched.getStatus().getPhase(), "a status write keeps a terminating pod");
    assertNotNull(patched.getMetadata().getDeletionTimestamp());

    client.pods().withName("graceful").withGracePeriod(0).delete();
    assertNull(client.pods().withName("graceful").get());
  }

  @Test
  void anUnboundPodIsDeletedAtOnce() {
    KubernetesClient client = cluster.client();
    client.pods().resource(pod("unbound", null)).create();
    client.pods().withName("unbound").withGracePeriod(5).delete();
    assertNull(client.pods().withName("unbound").get());
  }

  @Test
  void aDeleteWithoutGraceTakesThePodsGracePeriod() {
    KubernetesClient client = cluster.client();
    client.pods().resource(pod("pod-grace", "node")).create();
    client.pods().withName("pod-grace").delete();
    assertEquals(7L, client.pods().withName("pod-grace").get().getMetadata().getDeletionGracePeriodSeconds());
    client.pods().withName("pod-grace").withGracePeriod(0).delete();
  }

  public static String kubectl(Path kubeconfig, String... args) throws IOException, InterruptedException {
    List<String> command = new java.util.ArrayList<>(List.of("kubectl", "--kubeconfig", kubeconfig.toString()));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(30, TimeUnit.SECONDS));
    assertEquals(0, process.exitValue(), () -> String.join(" ", command) + " failed:\n" + out);
    return out;
  }
}
