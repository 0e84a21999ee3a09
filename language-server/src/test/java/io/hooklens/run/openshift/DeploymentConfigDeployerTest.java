package io.hooklens.run.openshift;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.openshift.DcHook;
import io.hooklens.core.yaml.SourceText;
import io.hooklens.core.yaml.YamlReader;
import io.hooklens.run.RunFixture;
import io.hooklens.run.openshift.DeploymentConfigDeployer.Kind;
import io.hooklens.run.openshift.DeploymentConfigDeployer.Outcome;
import io.hooklens.run.openshift.DeploymentConfigDeployer.Rollout;
import io.hooklens.run.openshift.DeploymentConfigDeployer.Step;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** DeploymentConfig rollouts with real hook pods on the embedded node, read back through the fabric8 client. */
@Tag("slow")
class DeploymentConfigDeployerTest {
  private static final AtomicInteger NAMESPACES = new AtomicInteger();
  private static final RunFixture.PerClass CLUSTERS = new RunFixture.PerClass();
  private RunFixture run;
  private final String namespace = "dc-" + NAMESPACES.incrementAndGet();

  @AfterAll
  static void stop() {
    CLUSTERS.close();
  }

  /** Tests run on the embedded cluster unless they name one. */
  @BeforeEach
  void embedded() {
    on(RunFixture.Kind.EMBEDDED);
  }

  private void on(RunFixture.Kind kind) {
    run = CLUSTERS.get(kind);
    run.namespace(namespace);
  }

  private Rollout deploy(String strategy, String extra, String hooks) {
    return new DeploymentConfigDeployer(run.client, new DeploymentConfigDeployer.Options(namespace, run.agent::log,
        run.agent.timeline(), null, null)).deploy(dc(strategy, extra, hooks));
  }

  private static Resource dc(String strategy, String extra, String hooks) {
    return dc(strategy, extra, hooks, "");
  }

  /** @param top more top-level fields, such as a status */
  private static Resource dc(String strategy, String extra, String hooks, String top) {
    String yaml = """
        apiVersion: apps.openshift.io/v1
        kind: DeploymentConfig
        metadata: {name: app}
        spec:
          replicas: 2
          strategy:
            type: %s
        %s
        %s
          template:
            spec:
              containers:
              - name: app
                image: registry.example/app:1
                command: [sleep, infinity]
                args: [not-inherited]
                workingDir: /tmp
                env:
                - {name: GREETING, value: hello}
                - {name: ROLE, value: app}
                volumeMounts:
                - {name: state, mountPath: /tmp/state}
              volumes:
              - name: state
                emptyDir: {}
        %s
        """.formatted(strategy, indent(extra, 4), indent(hooks, 4), top);
    return HookDocument.of("dc.yaml", new YamlReader().read(new SourceText(yaml), false)).resources().get(0);
  }

  private static String indent(String text, int spaces) {
    return text.lines().map(l -> " ".repeat(spaces) + l).collect(Collectors.joining("\n"));
  }

  private static String hook(String phase, String policy, String script) {
    return """
        %s:
          failurePolicy: %s
          execNewPod:
            containerName: app
            command: [sh, -c, '%s']
            env: [{name: ROLE, value: hook}]
            volumes: [state]
        """.formatted(phase, policy, script);
  }

  private static List<String> steps(Rollout rollout) {
    return rollout.steps().stream().map(s -> s.kind() + (s.phase() == null ? "" : " " + s.phase()) + " "
        + s.outcome()).toList();
  }

  private Pod pod(String name) {
    return run.client.pods().inNamespace(namespace).withName(name).get();
  }

  private List<String> events() {
    return run.events("DeploymentConfig", "app").stream().filter(e -> e.contains(namespace + "/app-1")).toList();
  }

  @Test
  void recreateRunsPreMidAndPostAroundTheScalingAsHookPods() {
    String hooks = "recreateParams:\n" + indent(
        hook("pre", "Abort", "echo pre $OPENSHIFT_DEPLOYMENT_NAME $ROLE $GREETING $PWD")
            + hook("mid", "Abort", "echo mid") + hook("post", "Abort", "echo post"), 2);
    Rollout rollout = deploy("Recreate", "", hooks);
    assertTrue(rollout.succeeded(), rollout.error());
    assertEquals("app-1", rollout.deployment());
    assertEquals(List.of("HOOK pre SUCCEEDED", "HOOK mid SUCCEEDED", "SCALE RECORDED", "HOOK post SUCCEEDED"),
        steps(rollout));
    Step pre = rollout.steps().get(0);
    assertEquals("app-1-hook-pre", pre.pod());
    assertEquals("pre app-1 hook hello /tmp\n", pre.run().containers().get(0).output());
    Pod pod = pod("app-1-hook-pre");
    assertEquals("Succeeded", pod.getStatus().getPhase());
    assertEquals("Never", pod.getSpec().getRestartPolicy());
    assertEquals(10L, pod.getSpec().getTerminationGracePeriodSeconds());
    assertEquals(Map.of("openshift.io/deployer-pod-for.name", "app-1", "openshift.io/deployer-pod.type", "hook-pre"),
        pod.getMetadata().getLabels());
    var container = pod.getSpec().getContainers().get(0);
    assertEquals("lifecycle", container.getName());
    assertEquals("registry.example/app:1", container.getImage());
    assertTrue(container.getArgs().isEmpty(), "args are not inherited");
    assertEquals(List.of("GREETING=hello", "ROLE=hook", "OPENSHIFT_DEPLOYMENT_NAME=app-1",
        "OPENSHIFT_DEPLOYMENT_NAMESPACE=" + namespace),
        container.getEnv().stream().map(e -> e.getName() + "=" + e.getValue()).toList());
    assertTrue(pre.startNanos() < rollout.steps().get(1).startNanos());
    List<String> events = events();
    assertEquals(3, events.stream().filter(e -> e.startsWith("Completed: The ")).count(), events.toString());
    assertTrue(events.contains("Started: Running mid-hook (\"sh -c echo mid\") for rc " + namespace + "/app-1"),
        events.toString());
  }

  // openshift/oc pkg/cli/deployer/strategy/support/lifecycle.go hookExecutor.Execute: under Abort a failed hook pod
  // fails the rollout, and the strategy (recreate.go DeployWithAcceptor) runs no later phase.
  @ParameterizedTest
  @EnumSource(RunFixture.Kind.class)
  void abortFailsTheRolloutAndTheLaterPhasesNeverRun(RunFixture.Kind kind) {
    on(kind);
    String hooks = "recreateParams:\n" + indent(hook("pre", "Abort", "echo no; exit 4")
        + hook("mid", "Abort", "true") + hook("post", "Abort", "true"), 2);
    Rollout rollout = deploy("Recreate", "", hooks);
    assertTrue(rollout.error().startsWith("pre hook failed: the pre hook failed: "), rollout.error());
    assertEquals(List.of("HOOK pre FAILED", "CONTROLLER RECORDED"), steps(rollout));
    assertEquals(4, rollout.steps().get(0).run().containers().get(0).exitCode());
    assertNull(pod("app-1-hook-mid"));
    assertNull(pod("app-1-hook-post"));
    assertTrue(events().stream().anyMatch(e -> e.startsWith("Failed: The pre-hook failed: ")
        && e.endsWith(", aborting rollout of " + namespace + "/app-1")), events().toString());
  }

  // openshift/oc pkg/cli/deployer/strategy/support/lifecycle.go hookExecutor.Execute: Retry makes the hook pod
  // restartPolicy OnFailure, and the kubelet restarts it until it succeeds.
  @ParameterizedTest
  @EnumSource(RunFixture.Kind.class)
  void retryHasTheKubeletRestartTheHookPodUntilItSucceeds(RunFixture.Kind kind) {
    on(kind);
    // The counter lives in the template's emptyDir, which execNewPod.volumes hands to the hook pod.
    String counter = "n=$(cat /tmp/state/n 2>/dev/null || echo 0); n=$((n+1)); echo $n > /tmp/state/n; "
        + "echo try $n; [ $n -ge 3 ]";
    String hooks = "recreateParams:\n" + indent(hook("mid", "Retry", counter) + hook("post", "Abort", "true"), 2);
    Rollout rollout = deploy("Recreate", "", hooks);
    assertTrue(rollout.succeeded(), rollout.error());
    Step mid = rollout.steps().get(0);
    assertEquals(Outcome.SUCCEEDED, mid.outcome());
    assertEquals(2, mid.run().containers().get(0).restarts());
    assertEquals("try 1\ntry 2\ntry 3\n", mid.run().containers().get(0).output());
    assertEquals("OnFailure", pod("app-1-hook-mid").getSpec().getRestartPolicy());
    assertEquals("Succeeded", pod("app-1-hook-post").getStatus().getPhase());
  }

  @Test
  void retryThatNeverSucceedsEndsAtTheStrategysActiveDeadlineAndFailsAPostHook() {
    String hooks = "recreateParams:\n" + indent(hook("post", "Retry", "exit 1"), 2);
    Rollout rollout = deploy("Recreate", "activeDeadlineSeconds: 2", hooks);
    assertEquals(List.of("SCALE RECORDED", "HOOK post FAILED", "CONTROLLER RECORDED"), steps(rollout));
    assertTrue(rollout.error().contains("Pod was active on the node longer than the specified deadline"),
        rollout.error());
    Pod pod = pod("app-1-hook-post");
    assertEquals("DeadlineExceeded", pod.getStatus().getReason());
    assertTrue(pod.getStatus().getContainerStatuses().get(0).getRestartCount() >= 1);
  }

  // openshift/oc pkg/cli/deployer/strategy/support/lifecycle.go hookExecutor.Execute: under Ignore a failed hook is
  // an event and the rollout goes on.
  @ParameterizedTest
  @EnumSource(RunFixture.Kind.class)
  void ignoreRecordsTheFailureAndTheRollingRolloutGoesOn(RunFixture.Kind kind) {
    on(kind);
    String tag = """
        post:
          failurePolicy: Abort
          tagImages:
          - containerName: app
            to: {kind: ImageStreamTag, name: "app:deployed"}
        """;
    String hooks = "rollingParams:\n" + indent(hook("pre", "Ignore", "exit 2") + hook("mid", "Abort", "true")
        + tag, 2);
    Rollout rollout = deploy("Rolling", "", hooks);
    assertTrue(rollout.succeeded(), rollout.error());
    // A first rollout goes through the Recreate strategy, which scales the new version up.
    assertEquals(List.of("HOOK pre IGNORED", "ROLLOUT RECORDED", "SCALE RECORDED", "HOOK post SUCCEEDED"),
        steps(rollout));
    assertNull(pod("app-1-hook-mid"), "Rolling has no mid hook");
    assertEquals(List.of("image \"registry.example/app:1\" as \"" + namespace + "/app:deployed\""),
        rollout.steps().get(3).tags());
    assertTrue(events().stream().anyMatch(e -> e.startsWith("Failed: The pre-hook failed: ")
        && e.endsWith("(ignore), rollout of " + namespace + "/app-1 will continue")), events().toString());
  }

  @Test
  void aRollingFirstRolloutRunsRecreateParamsHooksInsideItsOwnAndReusesAHookPodOfTheSameName() {
    // rolling.go Deploy hands a first rollout to recreate.go DeployWithAcceptor, which runs recreateParams' hooks;
    // its pre hook pod has the rolling pre's name, and hookExecutor takes an existing pod as this hook's run.
    String hooks = "rollingParams:\n" + indent(hook("pre", "Abort", "echo rolling pre"), 2) + "\nrecreateParams:\n"
        + indent(hook("pre", "Abort", "echo recreate pre; exit 1") + hook("mid", "Abort", "echo mid")
        + hook("post", "Ignore", "echo recreate post"), 2);
    Rollout rollout = deploy("Rolling", "", hooks);
    assertTrue(rollout.succeeded(), rollout.error());
    assertEquals(List.of("HOOK pre SUCCEEDED", "ROLLOUT RECORDED", "HOOK pre SUCCEEDED", "HOOK mid SUCCEEDED",
        "SCALE RECORDED", "HOOK post SUCCEEDED"), steps(rollout));
    assertEquals("rolling pre\n", run.agent.log(namespace, "app-1-hook-pre", "lifecycle").text());
    assertEquals("recreate post\n", run.agent.log(namespace, "app-1-hook-post", "lifecycle").text());
  }

  @Test
  void theHooksOfARolloutAreTheStrategysOwnAndOnARollingFirstRolloutRecreateParamsToo() {
    String hooks = "rollingParams:\n" + indent(hook("pre", "Abort", "a") + hook("post", "Ignore", "b"), 2)
        + "\nrecreateParams:\n" + indent(hook("pre", "Abort", "c") + hook("mid", "Abort", "d"), 2);
    Function<Resource, List<String>> order = dc -> DeploymentConfigDeployer.hooksOnRollout(dc).stream()
        .map(DcHook::describe).toList();
    assertEquals(List.of("rollingParams.pre", "recreateParams.pre", "recreateParams.mid", "rollingParams.post"),
        order.apply(dc("Rolling", "", hooks)));
    // A later rollout rolls from the version before: the Rolling strategy's own hooks only.
    assertEquals(List.of("rollingParams.pre", "rollingParams.post"),
        order.apply(dc("Rolling", "", hooks, "status: {latestVersion: 3}")));
    assertEquals(List.of("recreateParams.pre", "recreateParams.mid"), order.apply(dc("Recreate", "", hooks)));
  }
}
