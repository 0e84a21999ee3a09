package io.hooklens.run.node;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.fabric8.kubernetes.api.model.NodeStatusBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The node as a real API server and its controllers see it, registered as the kubelet registers itself: a Node
 * with this machine's capacity, a Ready condition and its addresses, and a Lease in {@code kube-node-lease}
 * renewed every 10 s (the kubelet's heartbeat; without it the node-lifecycle controller marks the node
 * {@code Unknown} after 40 s and taints it unreachable).
 */
final class NodeRegistration implements AutoCloseable {
  static final String LEASE_NAMESPACE = "kube-node-lease";
  private static final Logger LOG = Logger.getLogger(NodeRegistration.class.getName());
  private static final int LEASE_SECONDS = 40;
  private static final long RENEW_SECONDS = 10;
  private static final int MAX_PODS = 110;
  private static final String NOT_READY_TAINT = "node.kubernetes.io/not-ready";
  private static final DateTimeFormatter MICRO_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
      .withZone(ZoneOffset.UTC);

  private final KubernetesClient client;
  private final String name;
  private final ScheduledExecutorService renewals = Executors.newSingleThreadScheduledExecutor(runnable -> {
    Thread thread = new Thread(runnable, "hooklens-node-lease");
    thread.setDaemon(true);
    return thread;
  });

  private NodeRegistration(KubernetesClient client, String name) {
    this.client = client;
    this.name = name;
  }

  /** Creates the Node (with its status) and its Lease, and starts renewing the Lease. */
  static NodeRegistration register(KubernetesClient client, String name) {
    NodeRegistration registration = new NodeRegistration(client, name);
    Node node = new NodeBuilder().withNewMetadata().withName(name)
        .withLabels(Map.of("kubernetes.io/hostname", name, "kubernetes.io/os", "linux", "kubernetes.io/arch",
            architecture()))
        .endMetadata().withNewSpec().endSpec().withStatus(registration.status()).build();
    Node created = client.nodes().resource(node).create();
    // The status a create carries is kept by today's API servers; written again through its subresource as the
    // kubelet's status manager does, so that no server version's create strategy can drop it.
    client.nodes().withName(name).subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE),
        Serialization.asJson(Map.of("status", registration.status())));
    registration.liftNotReadyTaint();
    registration.createLease(created);
    registration.renewals.scheduleWithFixedDelay(registration::renew, RENEW_SECONDS, RENEW_SECONDS, TimeUnit.SECONDS);
    return registration;
  }

  private NodeStatus status() {
    long memory = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getTotalMemorySize();
    Map<String, Quantity> capacity = Map.of("cpu", new Quantity(String.valueOf(Runtime.getRuntime()
        .availableProcessors())), "memory", new Quantity(memory / 1024 + "Ki"), "pods",
        new Quantity(String.valueOf(MAX_PODS)));
    String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    List<NodeCondition> conditions = List.of(
        condition("MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available", now),
        condition("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure", now),
        condition("PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available", now),
        condition("Ready", "True", "KubeletReady", "kubelet is posting ready status", now));
    return new NodeStatusBuilder().withCapacity(capacity).withAllocatable(capacity).withConditions(conditions)
        .addNewAddress().withType("InternalIP").withAddress("127.0.0.1").endAddress()
        .addNewAddress().withType("Hostname").withAddress(name).endAddress()
        .withNewNodeInfo().withArchitecture(architecture()).withOperatingSystem("linux")
        .withContainerRuntimeVersion("hooklens://" + Runtime.version()).withKubeletVersion("hooklens")
        .withKubeProxyVersion("").withBootID("").withMachineID("").withSystemUUID("").withKernelVersion(
            System.getProperty("os.version")).withOsImage(System.getProperty("os.name")).endNodeInfo().build();
  }

  private static NodeCondition condition(String type, String status, String reason, String message, String now) {
    return new NodeConditionBuilder().withType(type).withStatus(status).withReason(reason).withMessage(message)
        .withLastHeartbeatTime(now).withLastTransitionTime(now).build();
  }

  private static String architecture() {
    String arch = System.getProperty("os.arch");
    return switch (arch) {
      case "amd64", "x86_64" -> "amd64";
      case "aarch64" -> "arm64";
      default -> arch;
    };
  }

  /**
   * The API server's NodeTaint admission gives every new Node {@code node.kubernetes.io/not-ready:NoSchedule}; the
   * node-lifecycle controller lifts it once it sees Ready, seconds later, by when the scheduler has marked the
   * run's first pod Unschedulable and backed off. This Node is Ready from its first status, so the taint goes now,
   * as the controller would lift it.
   */
  private void liftNotReadyTaint() {
    // The controller may lift it meanwhile: each try patches the version it read, and reads again on a conflict.
    for (int attempt = 0; ; attempt++) {
      Node node = client.nodes().withName(name).get();
      List<Taint> taints = node.getSpec().getTaints() == null ? List.of() : node.getSpec().getTaints();
      List<Taint> kept = taints.stream().filter(taint -> !NOT_READY_TAINT.equals(taint.getKey())).toList();
      if (kept.size() == taints.size()) {
        return;
      }
      try {
        client.nodes().withName(name).patch(PatchContext.of(PatchType.JSON_MERGE), Serialization.asJson(Map.of(
            "metadata", Map.of("resourceVersion", node.getMetadata().getResourceVersion()),
            "spec", Map.of("taints", kept))));
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt >= 10) {
          throw e;
        }
      }
    }
  }

  private void createLease(Node node) {
    if (client.namespaces().withName(LEASE_NAMESPACE).get() == null) {
      try {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(LEASE_NAMESPACE).endMetadata()
            .build()).create();
      } catch (KubernetesClientException e) {
        // 409: the API server's own system-namespaces controller made it meanwhile.
        if (e.getCode() != 409) {
          throw e;
        }
      }
    }
    Lease lease = new LeaseBuilder().withNewMetadata().withName(name).withNamespace(LEASE_NAMESPACE)
        .addNewOwnerReference().withApiVersion("v1").withKind("Node").withName(name)
        .withUid(node.getMetadata().getUid()).endOwnerReference().endMetadata()
        .withNewSpec().withHolderIdentity(name).withLeaseDurationSeconds(LEASE_SECONDS)
        .withRenewTime(ZonedDateTime.now(ZoneOffset.UTC)).endSpec().build();
    client.leases().inNamespace(LEASE_NAMESPACE).resource(lease).create();
  }

  private void renew() {
    try {
      client.leases().inNamespace(LEASE_NAMESPACE).withName(name).patch(PatchContext.of(PatchType.JSON_MERGE),
          "{\"spec\":{\"renewTime\":\"" + MICRO_TIME.format(Instant.now()) + "\"}}");
    } catch (KubernetesClientException e) {
      LOG.log(Level.WARNING, "cannot renew the node's lease", e);
    }
  }

  /** Stops renewing; the Node and its Lease stay, as a stopped kubelet's do. */
  @Override
  public void close() {
    renewals.shutdownNow();
  }
}
