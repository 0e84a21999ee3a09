package io.hooklens.run.node;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.hooklens.run.RunFixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The kubelet's tcpSocket and grpc probes (pkg/probe/tcp, pkg/probe/grpc), dialled to the pod IP from the pod's
 * network namespace; how probes gate Ready and restart a container is in {@link KubeletScenariosTest}.
 */
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
    if (jars != null) {
      NodeAgent.deleteTree(jars);
    }
  }

  /** Where the in-pod servers' classes are: the container sees the host's /usr (the JDK) and /tmp files named. */
  private static Path jars;

  private static boolean ready(Pod p) {
    return p.getStatus() != null && p.getStatus().getConditions() != null && p.getStatus().getConditions().stream()
        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  private static List<Event> events(String pod) {
    return run.client.v1().events().list().getItems().stream()
        .filter(e -> pod.equals(e.getInvolvedObject().getName())).toList();
  }

  /**
   * A JVM running {@code main} in the pod, with the jars its classes come from: copied under /tmp, where the
   * sandbox's user may read them and the node binds what a command names.
   */
  private static List<String> java(Class<?> main, List<Class<?>> uses, String... args) throws IOException {
    if (jars == null) {
      jars = Files.createTempDirectory(Path.of("/tmp"), "probe-servers-",
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
    }
    List<String> classPath = new ArrayList<>();
    Path own = jars.resolve(main.getSimpleName() + ".jar");
    String entry = main.getName().replace('.', '/') + ".class";
    try (var out = new JarOutputStream(Files.newOutputStream(own));
        var in = main.getClassLoader().getResourceAsStream(entry)) {
      out.putNextEntry(new JarEntry(entry));
      in.transferTo(out);
    }
    classPath.add(own.toString());
    for (Class<?> used : uses) {
      Path jar = Path.of(used.getProtectionDomain().getCodeSource().getLocation().getPath());
      Path copy = jars.resolve(jar.getFileName());
      Files.copy(jar, copy, StandardCopyOption.REPLACE_EXISTING);
      classPath.add(copy.toString());
    }
    try (var files = Files.list(jars)) {
      for (Path f : files.toList()) {
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r--r--"));
      }
    }
    List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow(),
        "-XX:TieredStopAtLevel=1", "-cp", String.join(":", classPath), main.getName()));
    command.addAll(List.of(args));
    return command;
  }

  /** A pod serving HTTP on port 8080 ("http") of {@code address}, with {@link TinyHttpServer}. */
  private static Pod httpServer(String name, String address, Probe startup, Probe readiness) throws IOException {
    return new PodBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec()
        .withTerminationGracePeriodSeconds(1L).addNewContainer().withName("app").withImage("debian:12")
        .withCommand(java(TinyHttpServer.class, List.of(), "8080", address)).addNewPort().withName("http")
        .withContainerPort(8080).endPort().withStartupProbe(startup).withReadinessProbe(readiness).endContainer()
        .endSpec().build();
  }

  private static Probe tcp(String port) {
    return new ProbeBuilder().withNewTcpSocket().withNewPort(port).endTcpSocket().withPeriodSeconds(1)
        .withFailureThreshold(2).build();
  }

  private static String podIp(String name) throws InterruptedException {
    return run.await("the pod's IP", () -> {
      Pod p = run.client.pods().withName(name).get();
      return p.getStatus() == null ? null : p.getStatus().getPodIP();
    }, 60_000);
  }

  private static Event unhealthy(String pod, String message) throws InterruptedException {
    try {
      return run.await("Unhealthy \"" + message + "\"", () -> events(pod).stream().filter(e ->
          "Unhealthy".equals(e.getReason()) && message.equals(e.getMessage())).findFirst().orElse(null), 60_000);
    } catch (AssertionError e) {
      throw new AssertionError(events(pod).stream().map(Event::getMessage).toList() + "; " + e.getMessage(), e);
    }
  }

  @Test
  void aTcpSocketProbePassesOnceTheContainerListensOnThePodIp() throws Exception {
    run.client.pods().resource(httpServer("tcp-open", "0.0.0.0", null, tcp("http"))).create();
    // Polled, not watched: a watch closed while fabric8's mock still sends it events stalls the mock's next request.
    Pod ready = run.await("tcp-open is Ready", () -> {
      Pod p = run.client.pods().withName("tcp-open").get();
      return p != null && ready(p) ? p : null;
    }, 60_000);
    assertTrue(ready.getStatus().getContainerStatuses().get(0).getReady());
    run.client.pods().withName("tcp-open").delete();
  }

  @Test
  void aTcpSocketProbeDoesNotReachAServerBoundToLoopbackOnly() throws Exception {
    // The kubelet dials the pod IP: on a cluster, a server listening on 127.0.0.1 alone refuses it. The startup
    // probe passes once the server answers on loopback, so the readiness probe's failures come after that.
    Probe listening = new ProbeBuilder().withNewExec().withCommand("bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/8080")
        .endExec().withPeriodSeconds(1).withFailureThreshold(60).build();
    run.client.pods().resource(httpServer("tcp-loopback", "127.0.0.1", listening, tcp("8080"))).create();
    String ip = podIp("tcp-loopback");
    unhealthy("tcp-loopback", "Readiness probe failed: dial tcp " + ip + ":8080: connect: connection refused");
    Pod pod = run.client.pods().withName("tcp-loopback").get();
    ContainerStatus app = pod.getStatus().getContainerStatuses().get(0);
    assertTrue(app.getStarted(), "the startup probe reached the server on loopback");
    assertFalse(ready(pod), "never Ready");
    run.client.pods().withName("tcp-loopback").delete();
  }

  private static Probe grpc(String service) {
    return new ProbeBuilder().withNewGrpc().withPort(9090).withService(service).endGrpc().withPeriodSeconds(1)
        .withTimeoutSeconds(5).withFailureThreshold(60).build();
  }

  @Test
  void grpcProbesAskTheHealthServiceAndQuoteANotServingService() throws Exception {
    // The whole server is SERVING, so the startup probe passes; the service "payments" is NOT_SERVING.
    List<Class<?>> grpcJars = List.of(io.grpc.Server.class, io.grpc.internal.ServerImpl.class, io.grpc.Context.class,
        io.grpc.stub.StreamObserver.class, io.grpc.protobuf.ProtoUtils.class,
        io.grpc.protobuf.lite.ProtoLiteUtils.class, io.grpc.util.MutableHandlerRegistry.class,
        io.grpc.protobuf.services.HealthStatusManager.class,
        io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder.class, com.google.protobuf.Message.class,
        com.google.common.base.Preconditions.class,
        com.google.common.util.concurrent.internal.InternalFutureFailureAccess.class, io.perfmark.PerfMark.class,
        com.google.rpc.Status.class);
    Pod pod = new PodBuilder().withNewMetadata().withName("grpc").endMetadata().withNewSpec()
        .withTerminationGracePeriodSeconds(1L).addNewContainer().withName("app").withImage("debian:12")
        .withCommand(java(TinyGrpcServer.class, grpcJars, "9090", "0.0.0.0")).withStartupProbe(grpc(null))
        .withReadinessProbe(grpc("payments")).endContainer().endSpec().build();
    run.client.pods().resource(pod).create();
    unhealthy("grpc", "Readiness probe failed: service unhealthy (responded with \"NOT_SERVING\")");
    Pod seen = run.client.pods().withName("grpc").get();
    assertTrue(seen.getStatus().getContainerStatuses().get(0).getStarted(), "the server as a whole is SERVING");
    assertFalse(ready(seen));
    run.client.pods().withName("grpc").delete();
  }
}
