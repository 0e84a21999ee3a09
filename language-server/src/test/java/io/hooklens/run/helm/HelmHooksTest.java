package io.hooklens.run.helm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.hooklens.Timing;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.helm.DeletePolicy;
import io.hooklens.core.model.helm.HelmOperation;
import io.hooklens.core.yaml.SourceText;
import io.hooklens.core.yaml.YamlReader;
import io.hooklens.run.RunFixture;
import io.hooklens.run.RunFixture.Kind;
import io.hooklens.run.helm.HelmHooks.HookResult;
import io.hooklens.run.helm.HelmHooks.OperationResult;
import io.hooklens.run.helm.HelmHooks.Outcome;
import io.hooklens.run.helm.HelmHooks.PhaseResult;
import io.hooklens.run.node.Timeline.Mark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Helm hook events with real processes, on the embedded cluster and, for order and delete policies, on a real
 * control plane too: each test gets its own namespace and reads what exists afterwards through the fabric8
 * client; the order is the order in which processes really ran (the node's container starts, or on the embedded
 * cluster the names hooks append to a host directory).
 */
@Tag("slow")
class HelmHooksTest {
  private static final AtomicInteger NAMESPACES = new AtomicInteger();
  private static final RunFixture.PerClass CLUSTERS = new RunFixture.PerClass();
  private RunFixture run;
  @TempDir
  Path dir;
  private final String namespace = "helm-" + NAMESPACES.incrementAndGet();
  private final List<String> progress = new CopyOnWriteArrayList<>();

  @AfterAll
  static void stop() {
    CLUSTERS.close();
  }

  /** Tests run on the embedded cluster unless they name one. */
  @BeforeEach
  void openTheOrderFolder() throws IOException {
    RunFixture.openToSandbox(dir, true);
    on(Kind.EMBEDDED);
  }

  private void on(Kind kind) {
    run = CLUSTERS.get(kind);
    run.namespace(namespace);
  }

  private HelmHooks hooks(Duration timeout) {
    return new HelmHooks(run.client, new HelmHooks.Options(namespace, timeout, run.agent::log, run.agent.timeline(),
        progress::add));
  }

  private static HookDocument doc(String yaml) {
    return HookDocument.of("manifests.yaml", new YamlReader().read(new SourceText(yaml), false));
  }

  /** A hook Pod that appends its name to the shared order file, prints {@code ran NAME}, then runs {@code script}. */
  private String pod(String name, String event, String annotations, String script) {
    return """
        apiVersion: v1
        kind: Pod
        metadata:
          name: %s
          annotations:
            helm.sh/hook: %s
        %s
        spec:
        %s
        ---
        """.formatted(name, event, indent(indent(annotations)), indent(podSpec(name, script)));
  }

  /** A hook Job whose pods do what {@link #pod} does. */
  private String job(String name, String event, String annotations, int backoffLimit, String script) {
    return """
        apiVersion: batch/v1
        kind: Job
        metadata:
          name: %s
          annotations:
            helm.sh/hook: %s
        %s
        spec:
          backoffLimit: %d
          template:
            spec:
        %s
        ---
        """.formatted(name, event, indent(indent(annotations)), backoffLimit,
            indent(indent(indent(podSpec(name, script)))));
  }

  // The host directory is read-only on a real API server (see started()), where the name is not written.
  private String podSpec(String name, String script) {
    return """
        restartPolicy: Never
        terminationGracePeriodSeconds: 1
        containers:
        - name: hook
          image: debian:12
          command: [sh, -c, 'echo %s 2>/dev/null >> /tmp/order/log; echo ran $HOSTNAME; %s']
          volumeMounts:
          - {name: order, mountPath: /tmp/order, readOnly: false}
        volumes:
        - name: order
          hostPath: {path: %s}""".formatted(name, script, dir);
  }

  private static String indent(String text) {
    return text.lines().map(l -> "  " + l).reduce((a, b) -> a + "\n" + b).orElse("");
  }

  private List<String> order() throws Exception {
    Path log = dir.resolve("log");
    return Files.exists(log) ? Files.readAllLines(log) : List.of();
  }

  /**
   * The pods whose containers the node started in this namespace, in the order it started them: the same order
   * on both clusters, where a hostPath the hooks could write to is not (a real API server drops a mount's
   * {@code readOnly: false}, and the node mounts a hostPath read-only unless a mount says it).
   */
  private List<String> started() {
    return run.agent.timeline().entries().stream()
        .filter(e -> e.mark() == Mark.CONTAINER_STARTED && e.pod().startsWith(namespace + "/"))
        .map(e -> e.pod().substring(namespace.length() + 1)).toList();
  }

  private Pod pod(String name) {
    return run.client.pods().inNamespace(namespace).withName(name).get();
  }

  // pkg/action/hooks.go execHook: hooks sorted by weight then name (hookByWeight), each awaited before the next.
  @ParameterizedTest
  @EnumSource(Kind.class)
  void hooksRunOneAfterTheOtherByWeightThenName(Kind kind) throws Exception {
    on(kind);
    String yaml = pod("b-second", "pre-install", "helm.sh/hook-weight: \"1\"", "true")
        + pod("a-first", "pre-install", "helm.sh/hook-weight: \"1\"", "sleep 0.3")
        + pod("z-early", "pre-install", "helm.sh/hook-weight: \"-1\"", "true")
        + pod("post", "post-install", "", "true");
    PhaseResult phase = hooks(Duration.ofSeconds(20)).runEvent(doc(yaml), "pre-install");
    assertTrue(phase.succeeded(), phase.error());
    assertEquals(List.of("z-early", "a-first", "b-second"), started(), "processes ran in Helm's order");
    assertEquals(List.of("z-early", "a-first", "b-second"), phase.hooks().stream().map(HookResult::name).toList());
    for (HookResult hook : phase.hooks()) {
      assertEquals(Outcome.SUCCEEDED, hook.outcome());
      assertTrue(hook.defaultPolicy());
      assertNull(hook.deletion(), "before-hook-creation deletes nothing after the hook");
      assertEquals("Succeeded", pod(hook.name()).getStatus().getPhase());
      assertEquals(0, hook.pods().get(0).containers().get(0).exitCode());
      assertEquals("ran " + hook.name() + "\n", hook.pods().get(0).containers().get(0).output());
    }
    HookResult first = phase.hooks().get(1);
    assertTrue(first.finishedNanos() - first.createdNanos() >= 300_000_000L, "waited for the Pod to succeed");
    assertTrue(phase.hooks().get(2).createdNanos() >= first.finishedNanos());
    assertNull(pod("post"), "another event's hook is not run");
  }

  // pkg/action/hooks.go execHook: a failing hook ends the event, its hook-failed and the earlier hooks'
  // hook-succeeded deletions apply (deleteHooksByPolicy), later hooks never run.
  @ParameterizedTest
  @EnumSource(Kind.class)
  void aFailingHookStopsTheEventAndItsPoliciesApply(Kind kind) throws Exception {
    on(kind);
    String yaml = pod("one", "pre-install", "helm.sh/hook-delete-policy: hook-succeeded", "true")
        + pod("two", "pre-install", "helm.sh/hook-weight: \"1\"\nhelm.sh/hook-delete-policy: hook-failed", "exit 3")
        + pod("three", "pre-install", "helm.sh/hook-weight: \"2\"", "true")
        + """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: release-object}
        """;
    OperationResult install = hooks(Duration.ofSeconds(20)).run(doc(yaml), HelmOperation.INSTALL);
    assertFalse(install.succeeded());
    assertNull(install.release(), "the release step is not reached");
    PhaseResult phase = install.phases().get(0);
    assertEquals("pod two failed", phase.error());
    assertEquals(List.of("one", "two"), started());
    assertEquals(List.of("one", "two"), phase.hooks().stream().map(HookResult::name).toList());
    HookResult two = phase.hooks().get(1);
    assertEquals(Outcome.FAILED, two.outcome());
    assertEquals(3, two.pods().get(0).containers().get(0).exitCode());
    assertEquals(DeletePolicy.HOOK_FAILED, two.deletion().policy());
    assertEquals(DeletePolicy.HOOK_SUCCEEDED, phase.hooks().get(0).deletion().policy(),
        "earlier hooks' hook-succeeded applies");
    assertNull(pod("one"));
    assertNull(pod("two"));
    assertNull(pod("three"), "never created");
    assertNull(run.client.configMaps().inNamespace(namespace).withName("release-object").get());
  }

  @Test
  void beforeHookCreationReplacesAnExistingObjectAndAnyOtherPolicyTurnsItOff() throws Exception {
    run.client.configMaps().inNamespace(namespace).resource(new ConfigMapBuilder().withNewMetadata()
        .withName("settings").endMetadata().withData(Map.of("value", "old")).build()).create();
    run.client.configMaps().inNamespace(namespace).resource(new ConfigMapBuilder().withNewMetadata()
        .withName("kept").endMetadata().withData(Map.of("value", "old")).build()).create();
    String yaml = """
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: settings
          annotations: {helm.sh/hook: pre-upgrade}
        data: {value: new}
        ---
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: kept
          annotations: {helm.sh/hook: pre-upgrade, helm.sh/hook-weight: "1", helm.sh/hook-delete-policy: hook-succeeded}
        data: {value: new}
        """;
    PhaseResult phase = hooks(Duration.ofSeconds(10)).runEvent(doc(yaml), "pre-upgrade");
    HookResult settings = phase.hooks().get(0);
    assertTrue(settings.replacedExisting());
    assertEquals(Outcome.SUCCEEDED, settings.outcome());
    assertFalse(settings.awaited(), "a ConfigMap is done once created");
    assertEquals("new", run.client.configMaps().inNamespace(namespace).withName("settings").get().getData()
        .get("value"));
    HookResult kept = phase.hooks().get(1);
    assertEquals(Outcome.NOT_CREATED, kept.outcome());
    assertTrue(phase.error().startsWith("warning: Hook pre-upgrade ConfigMap/kept failed"), phase.error());
    assertEquals("old", run.client.configMaps().inNamespace(namespace).withName("kept").get().getData().get("value"));
  }

  @Test
  void aJobHookIsAwaitedAndDeletedWithItsPodsWhenItSucceeds() throws Exception {
    String yaml = job("migrate", "post-upgrade",
        "helm.sh/hook-delete-policy: hook-succeeded\nhelm.sh/hook-output-log-policy: hook-succeeded", 0,
        "echo migrated");
    PhaseResult phase = hooks(Duration.ofSeconds(20)).runEvent(doc(yaml), "post-upgrade");
    assertTrue(phase.succeeded(), phase.error());
    HookResult migrate = phase.hooks().get(0);
    assertEquals(Outcome.SUCCEEDED, migrate.outcome());
    assertTrue(migrate.outputLogged());
    assertEquals(1, migrate.pods().size());
    String output = migrate.pods().get(0).containers().get(0).output();
    assertTrue(output.matches("ran migrate-[a-z0-9]{5}\nmigrated\n"), output);
    assertEquals(DeletePolicy.HOOK_SUCCEEDED, migrate.deletion().policy());
    assertNull(run.client.batch().v1().jobs().inNamespace(namespace).withName("migrate").get());
    run.await("the Job's pods deleted", () -> run.client.pods().inNamespace(namespace).withLabel("job-name", "migrate")
        .list().getItems().isEmpty() ? true : null, 10_000);
  }

  @Test
  void aJobHookThatRunsOutOfRetriesFailsTheEventAndHookFailedDeletesIt() throws Exception {
    String yaml = job("check", "test", "helm.sh/hook-delete-policy: hook-failed", 1, "exit 1");
    PhaseResult phase = hooks(Duration.ofSeconds(20)).runEvent(doc(yaml), "test");
    assertEquals("job check failed: BackoffLimitExceeded", phase.error());
    HookResult check = phase.hooks().get(0);
    assertEquals(2, check.pods().size(), "backoffLimit 1: two pods");
    assertEquals(List.of("check", "check"), order());
    assertFalse(check.outputLogged(), "no output log policy");
    assertEquals(DeletePolicy.HOOK_FAILED, check.deletion().policy());
    assertNull(run.client.batch().v1().jobs().inNamespace(namespace).withName("check").get());
  }

  @Test
  void aPodHookThatNeverCompletesTimesOut() throws Exception {
    // No restartPolicy: Always, as the API server defaults it, so the Pod never reaches Succeeded.
    String yaml = pod("forever", "pre-delete", "", "true").replace("restartPolicy: Never", "");
    // Long enough for a start, an exit and a restart after the fixture's short back-off, on this machine.
    PhaseResult phase = hooks(Duration.ofMillis(1000 + 4 * Timing.slackMs())).runEvent(doc(yaml), "pre-delete");
    HookResult forever = phase.hooks().get(0);
    assertEquals(Outcome.TIMED_OUT, forever.outcome());
    assertEquals("timed out waiting for the condition", phase.error());
    assertTrue(forever.pods().get(0).containers().get(0).restarts() >= 1, "the kubelet restarted it meanwhile");
    assertNotNull(pod("forever"), "before-hook-creation leaves it for the next run");
  }

  @Test
  void installCreatesTheReleaseBetweenItsEventsAndUninstallKeepsWhatItMustKeep() throws Exception {
    String release = """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: config}
        ---
        apiVersion: v1
        kind: Service
        metadata:
          name: web
          annotations: {helm.sh/resource-policy: keep}
        spec:
          ports: [{port: 80}]
        ---
        """;
    String yaml = release + pod("before", "pre-install", "", "true")
        + pod("after", "post-install", "", "test -n x");
    OperationResult install = hooks(Duration.ofSeconds(20)).run(doc(yaml), HelmOperation.INSTALL);
    assertTrue(install.succeeded());
    assertEquals(List.of("pre-install", "post-install"), install.phases().stream().map(PhaseResult::event).toList());
    assertEquals(List.of("ConfigMap/config", "Service/web"), install.release().objects());
    assertTrue(install.release().startNanos() >= install.phases().get(0).endNanos());
    assertTrue(install.phases().get(1).startNanos() >= install.release().endNanos());
    assertNotNull(run.client.configMaps().inNamespace(namespace).withName("config").get());

    OperationResult uninstall = hooks(Duration.ofSeconds(20)).run(doc(yaml), HelmOperation.UNINSTALL);
    assertTrue(uninstall.succeeded());
    assertEquals(List.of("ConfigMap/config"), uninstall.release().objects());
    assertEquals(List.of("Service/web"), uninstall.release().kept());
    assertNull(run.client.configMaps().inNamespace(namespace).withName("config").get());
    assertNotNull(run.client.services().inNamespace(namespace).withName("web").get());
    assertNotNull(pod("before"), "hooks are not part of the release");
  }
}
