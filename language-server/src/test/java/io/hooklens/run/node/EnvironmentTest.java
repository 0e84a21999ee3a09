package io.hooklens.run.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hooklens.run.RunFixture;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A container's environment as the kubelet makes it, read by real processes: ConfigMaps and Secrets through the
 * API, pod fields, {@code $(NAME)} references, and a container that waits in CreateContainerConfigError until
 * the ConfigMap it needs exists.
 */
@Tag("slow")
class EnvironmentTest {
  private static RunFixture run;
  private static NodeAgent agent;
  private static KubernetesClient client;

  @BeforeAll
  static void start() {
    run = new RunFixture();
    agent = run.agent;
    client = run.client;
  }

  @AfterAll
  static void stop() {
    run.close();
  }

  private static Pod await(String name, Predicate<Pod> condition) throws InterruptedException {
    return run.await("pod " + name + " in the expected state", () -> {
      Pod pod = client.pods().withName(name).get();
      return pod != null && condition.test(pod) ? pod : null;
    }, 10_000);
  }

  private static boolean ended(Pod pod) {
    return pod.getStatus() != null && List.of("Succeeded", "Failed").contains(pod.getStatus().getPhase());
  }

  @Test
  void configMapsSecretsFieldsAndReferencesAreResolvedAsTheKubeletResolvesThem() throws InterruptedException {
    client.configMaps().resource(new ConfigMapBuilder().withNewMetadata().withName("settings").endMetadata()
        .withData(Map.of("level", "debug", "region", "eu")).build()).create();
    client.secrets().resource(new SecretBuilder().withNewMetadata().withName("db").endMetadata()
        .withData(Map.of("password", Base64.getEncoder().encodeToString("s3cret".getBytes(StandardCharsets.UTF_8))))
        .build()).create();
    Pod pod = new PodBuilder().withNewMetadata().withName("env").addToLabels("app", "shop").endMetadata()
        .withNewSpec().withRestartPolicy("Never").addNewContainer().withName("app").withImage("debian:12")
        // $(NAME) in args is the kubelet's; the shell prints its positional arguments literally.
        .withCommand("sh", "-c").withArgs("echo \"$0|$1|$CFG_level $CFG_region $PASSWORD $POD $APP $NS\"",
            "$(GREETING)", "$(MISSING)")
        .addNewEnvFrom().withPrefix("CFG_").withNewConfigMapRef().withName("settings").endConfigMapRef().endEnvFrom()
        .addNewEnv().withName("NAME").withValue("world").endEnv()
        .addNewEnv().withName("GREETING").withValue("hello $(NAME), $$(NAME)").endEnv()
        .addNewEnv().withName("PASSWORD").withNewValueFrom().withNewSecretKeyRef().withName("db").withKey("password")
        .endSecretKeyRef().endValueFrom().endEnv()
        .addNewEnv().withName("POD").withNewValueFrom().withNewFieldRef().withFieldPath("metadata.name").endFieldRef()
        .endValueFrom().endEnv()
        .addNewEnv().withName("APP").withNewValueFrom().withNewFieldRef().withFieldPath("metadata.labels['app']")
        .endFieldRef().endValueFrom().endEnv()
        .addNewEnv().withName("NS").withNewValueFrom().withNewFieldRef().withFieldPath("metadata.namespace")
        .endFieldRef().endValueFrom().endEnv()
        .addNewEnv().withName("OPTIONAL").withNewValueFrom().withNewConfigMapKeyRef().withName("nope").withKey("k")
        .withOptional(true).endConfigMapKeyRef().endValueFrom().endEnv()
        .endContainer().endSpec().build();
    client.pods().resource(pod).create();
    Pod done = await("env", EnvironmentTest::ended);
    assertEquals("Succeeded", done.getStatus().getPhase(), agent.timeline().of("default/env").toString());
    assertEquals("hello world, $(NAME)|$(MISSING)|debug eu s3cret env shop default\n",
        agent.log("default", "env", "app").text());
  }

  @Test
  void aMissingConfigMapHoldsTheContainerInCreateContainerConfigErrorUntilItExists() throws InterruptedException {
    Pod pod = new PodBuilder().withNewMetadata().withName("waits").endMetadata().withNewSpec()
        .withRestartPolicy("Never").addNewContainer().withName("app").withImage("debian:12")
        .withCommand("sh", "-c", "echo level $LEVEL")
        .addNewEnv().withName("LEVEL").withNewValueFrom().withNewConfigMapKeyRef().withName("later").withKey("level")
        .endConfigMapKeyRef().endValueFrom().endEnv()
        .endContainer().endSpec().build();
    client.pods().resource(pod).create();
    Pod waiting = await("waits", p -> p.getStatus() != null && p.getStatus().getContainerStatuses() != null
        && !p.getStatus().getContainerStatuses().isEmpty()
        && p.getStatus().getContainerStatuses().get(0).getState().getWaiting() != null
        && "CreateContainerConfigError".equals(p.getStatus().getContainerStatuses().get(0).getState().getWaiting()
            .getReason()));
    ContainerStateWaiting state = waiting.getStatus().getContainerStatuses().get(0).getState().getWaiting();
    assertEquals("configmap \"later\" not found", state.getMessage());
    assertEquals("Pending", waiting.getStatus().getPhase());
    assertTrue(client.v1().events().inNamespace("default").list().getItems().stream().anyMatch(e ->
        "waits".equals(e.getInvolvedObject().getName()) && "Failed".equals(e.getReason())
            && "Error: configmap \"later\" not found".equals(e.getMessage())));

    client.configMaps().resource(new ConfigMapBuilder().withNewMetadata().withName("later").endMetadata()
        .withData(Map.of("level", "info")).build()).create();
    Pod done = await("waits", EnvironmentTest::ended);
    assertEquals("Succeeded", done.getStatus().getPhase());
    assertEquals("level info\n", agent.log("default", "waits", "app").text());
  }

  @Test
  void aPodWaitingForItsConfigIsDeletedWithoutStartingAnything() throws InterruptedException {
    Pod pod = new PodBuilder().withNewMetadata().withName("never").endMetadata().withNewSpec()
        .withRestartPolicy("Never").withTerminationGracePeriodSeconds(1L).addNewContainer().withName("app")
        .withImage("debian:12").withCommand("sh", "-c", "echo started")
        .addNewEnvFrom().withNewSecretRef().withName("absent").endSecretRef().endEnvFrom()
        .endContainer().endSpec().build();
    client.pods().resource(pod).create();
    await("never", p -> p.getStatus() != null && p.getStatus().getContainerStatuses() != null
        && !p.getStatus().getContainerStatuses().isEmpty()
        && p.getStatus().getContainerStatuses().get(0).getState().getWaiting() != null
        && "CreateContainerConfigError".equals(p.getStatus().getContainerStatuses().get(0).getState().getWaiting()
            .getReason()));
    client.pods().withName("never").delete();
    long deadline = System.currentTimeMillis() + 10_000;
    while (client.pods().withName("never").get() != null) {
      if (System.currentTimeMillis() > deadline) {
        fail("the pod was never removed; node timeline: " + agent.timeline().of("default/never"));
      }
      Thread.sleep(20);
    }
    assertTrue(agent.timeline().of("default/never").stream()
        .noneMatch(e -> e.mark() == Timeline.Mark.CONTAINER_STARTED), "nothing started");
  }
}
