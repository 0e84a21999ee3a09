package io.hooklens.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.hooklens.run.RunFixture.Kind;
import io.hooklens.run.cluster.ControlPlane;
import io.hooklens.run.report.HookResult;
import io.hooklens.run.report.RunReport;
import io.hooklens.run.report.Step;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code --context}: the runner on a cluster it reaches through a kubeconfig, in a namespace of its own, starting
 * no node itself. Each scenario runs on the embedded cluster's API and on a real control plane (etcd,
 * kube-apiserver, controller manager and scheduler, skipped without their binaries), each with a node agent
 * beside it as a cluster's kubelet would be.
 */
@Tag("slow")
class ContextRunTest {
  // A real API server deletes a namespace once its namespace controller has emptied it, some seconds later.
  private static final long GONE_MS = 120_000;

  @TempDir
  Path dir;

  private static final RunFixture.PerClass CLUSTERS = new RunFixture.PerClass();

  @AfterAll
  static void stop() {
    CLUSTERS.close();
  }

  /** The cluster a context points at, with the node agent that is its kubelet, and its kubeconfig. */
  private record Target(RunFixture fixture, Path kubeconfig) {
    static Target of(Kind kind, Path dir) throws IOException {
      RunFixture fixture = CLUSTERS.get(kind);
      return new Target(fixture, fixture.cluster.writeKubeconfig(dir.resolve("kubeconfig")));
    }

    KubernetesClient admin() {
      return fixture.client;
    }

    /**
     * Whether the namespace is gone, waiting for a real namespace controller to finish deleting it. A request the
     * API does not answer in time is asked again: the embedded API can stall for seconds on two busy cores.
     */
    boolean gone(String namespace) throws InterruptedException {
      long deadline = System.currentTimeMillis() + GONE_MS;
      while (System.currentTimeMillis() < deadline) {
        try {
          if (admin().namespaces().withName(namespace).get() == null) {
            return true;
          }
        } catch (KubernetesClientException e) {
          if (e.getCode() > 0) {
            throw e;  // An answer from the API, not its silence.
          }
        }
        Thread.sleep(100);
      }
      return false;
    }
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void aContextRunUsesAThrowAwayNamespaceAndReadsWhatHappenedThroughTheApi(Kind kind) throws Exception {
    Target target = Target.of(kind, dir);
    List<String> progress = new CopyOnWriteArrayList<>();
    RunReport report;
    String namespace;
    try (Runner runner = Runner.context("hooklens", target.kubeconfig(), 60,
        (s, pod, what) -> progress.add(what))) {
      report = runner.run(RunnerTest.plan(RunnerTest.STOPS_ON_TERM.formatted(2, "sleep 0.5")), List.of());
      namespace = runner.namespace();
    }
    assertEquals("context hooklens", report.target());
    assertTrue(namespace.matches("hooklens-run-[a-z0-9]{5}"), namespace);
    assertTrue(target.gone(namespace), "the namespace is deleted after the run");
    Step step = report.steps().get(0);
    assertEquals("api", step.timing());
    assertEquals(namespace, step.namespace());
    assertTrue(step.events().stream().anyMatch(e -> "Killing".equals(e.reason())), step.events().toString());
    assertEquals(0, step.containers().get(0).exitCode(), step.containers().toString());
    HookResult preStop = step.hooks().get(0);
    assertEquals("unknown", preStop.status(), "a hook's end is not visible through the API");
    assertTrue(step.verdicts().get(0).ok(), step.verdicts().toString());
    assertTrue(progress.contains("container \"app\" Running"), progress.toString());
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void closingAContextRunMidwayDeletesItsNamespace(Kind kind) throws Exception {
    Target target = Target.of(kind, dir);
    CompletableFuture<Void> running = new CompletableFuture<>();
    Runner runner = Runner.context("hooklens", target.kubeconfig(), 60, (s, pod, what) -> {
      if (what.startsWith("deleting")) {
        running.complete(null);
      }
    });
    CompletableFuture<RunReport> run = CompletableFuture.supplyAsync(() -> {
      try {
        return runner.run(RunnerTest.plan(RunnerTest.STOPS_ON_TERM.formatted(30, "sleep 20")), List.of());
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    running.get(90, TimeUnit.SECONDS);
    String namespace = runner.namespace();
    assertNotNull(target.admin().namespaces().withName(namespace).get());
    runner.close();
    ExecutionException stopped = assertThrows(ExecutionException.class, () -> run.get(60, TimeUnit.SECONDS));
    assertTrue(stopped.getCause().getCause() instanceof InterruptedException, stopped.toString());
    assertTrue(target.gone(namespace), "the namespace is deleted on Ctrl-C too");
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void anUnknownContextIsARunExceptionNotACrash(Kind kind) throws Exception {
    Target target = Target.of(kind, dir);
    try (Runner runner = Runner.context("nope", target.kubeconfig(), 20, (s, pod, what) -> { })) {
      RunException e = assertThrows(RunException.class,
          () -> runner.run(RunnerTest.plan(RunnerTest.STOPS_ON_TERM.formatted(2, "true")), List.of()));
      assertTrue(e.getMessage().contains("no context nope"), e.getMessage());
    }
  }

  @Test
  void aUserWhoMayNotCreateNamespacesGetsTheForbiddenActionNotAStackTrace() throws Exception {
    Target target = Target.of(Kind.ENVTEST, dir);
    // A service account nothing was granted to, with a token from the TokenRequest API.
    target.admin().serviceAccounts().inNamespace(ControlPlane.NAMESPACE).resource(new ServiceAccountBuilder()
        .withNewMetadata().withName("limited").endMetadata().build()).create();
    String token = target.admin().serviceAccounts().inNamespace(ControlPlane.NAMESPACE).withName("limited")
        .tokenRequest(new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build())
        .getStatus().getToken();
    String admin = Files.readString(target.kubeconfig());
    Path limited = dir.resolve("limited-kubeconfig");
    Files.writeString(limited, admin.replaceFirst("token: \\S+", "token: " + token));
    List<String> progress = new CopyOnWriteArrayList<>();
    try (Runner runner = Runner.context("hooklens", limited, 20, (s, pod, what) -> progress.add(what))) {
      RunException e = assertThrows(RunException.class,
          () -> runner.run(RunnerTest.plan(RunnerTest.STOPS_ON_TERM.formatted(2, "true")), List.of()));
      assertTrue(e.getMessage().startsWith("cannot create the run's namespace hooklens-run-"), e.getMessage());
      assertTrue(e.getMessage().endsWith(": namespaces is forbidden: User "
          + "\"system:serviceaccount:default:limited\" cannot create resource \"namespaces\" in API group \"\" at "
          + "the cluster scope"), e.getMessage());
      assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }
    assertTrue(target.admin().namespaces().list().getItems().stream()
        .noneMatch(n -> n.getMetadata().getName().startsWith("hooklens-run-")), "no namespace was made");
    assertEquals(List.of(), progress.stream().filter(p -> p.startsWith("cannot clean up")).toList());
  }
}
