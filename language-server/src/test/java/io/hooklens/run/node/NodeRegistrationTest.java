package io.hooklens.run.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hooklens.run.RunFixture;
import io.hooklens.run.cluster.ControlPlane;
import io.hooklens.run.cluster.KubeAssets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Node a real API server holds once the agent has joined. The server's NodeTaint admission taints every new
 * Node not-ready; the node-lifecycle controller lifts it only seconds later on a loaded machine, and not at all
 * without a controller manager, so a control plane of etcd, kube-apiserver and kube-scheduler alone shows whether
 * the node is schedulable as it joins.
 */
@Tag("slow")
class NodeRegistrationTest {
  @TempDir
  Path dir;

  @Test
  void aJoinedNodeIsReadySchedulableAndHoldsItsLeaseWithoutAControllerManager() throws Exception {
    KubeAssets all = RunFixture.binariesOrSkip();
    for (String binary : List.of("etcd", "kube-apiserver", KubeAssets.SCHEDULER)) {
      Files.createSymbolicLink(dir.resolve(binary), all.binary(binary).toAbsolutePath());
    }
    KubeAssets schedulerOnly = KubeAssets.find(dir, Map.of());
    try (ControlPlane plane = new ControlPlane(schedulerOnly, Map.entry(NodeAgent.markerVariable(),
        NodeAgent.markerPrefix() + "control-plane"), Duration.ofMinutes(2))) {
      plane.start(line -> { });
      KubernetesClient client = plane.client();
      try (NodeAgent agent = NodeAgent.join(client, Map.of(), NodeAgent.Peer.SCHEDULED)) {
        Node node = client.nodes().withName(NodeAgent.NODE_NAME).get();
        List<String> taints = node.getSpec().getTaints() == null ? List.of()
            : node.getSpec().getTaints().stream().map(Taint::getKey).toList();
        assertEquals(List.of(), taints);
        assertEquals(List.of("True"), node.getStatus().getConditions().stream()
            .filter(c -> c.getType().equals("Ready")).map(NodeCondition::getStatus).toList());
        Lease lease = client.leases().inNamespace(NodeRegistration.LEASE_NAMESPACE).withName(NodeAgent.NODE_NAME)
            .get();
        assertNotNull(lease);
        assertEquals(NodeAgent.NODE_NAME, lease.getSpec().getHolderIdentity());
        Pod pod = new PodBuilder().withNewMetadata().withName("bound").endMetadata().withNewSpec()
            .addNewContainer().withName("app").withImage("busybox:1.36").withCommand("true").endContainer()
            .withRestartPolicy("Never").endSpec().build();
        client.pods().resource(pod).create();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String nodeName = null;
        while (nodeName == null && System.nanoTime() < deadline) {
          Thread.sleep(50);
          nodeName = client.pods().withName("bound").get().getSpec().getNodeName();
        }
        assertEquals(NodeAgent.NODE_NAME, nodeName, "the scheduler's binding");
      }
    }
  }
}
