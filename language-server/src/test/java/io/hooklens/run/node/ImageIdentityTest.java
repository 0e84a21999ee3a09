package io.hooklens.run.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.hooklens.run.RunFixture;
import io.hooklens.run.node.Timeline.Mark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An image's {@code User} and {@code StopSignal} apply as on a cluster: the kubelet takes runAsUser, else the image
 * user's uid (kuberuntime generateContainerConfig, getImageUser), refuses root under runAsNonRoot
 * (verifyRunAsNonRoot); containerd takes runAsGroup, else the user's group in the image's /etc/passwd, and stops
 * the container with the image's StopSignal.
 */
@Tag("slow")
class ImageIdentityTest {
  private static final String PASSWD = "root:x:0:0:root:/:/bin/sh\napp:x:1000:1001::/:/bin/sh\n";

  @TempDir
  static Path dir;
  private static RunFixture run;

  @BeforeAll
  static void start() throws Exception {
    Path root = TinyImage.build(dir.resolve("tiny"));
    Files.writeString(root.resolve("etc/passwd"), PASSWD);
    RunFixture.openToSandbox(dir, false);
    run = new RunFixture(Map.of(
        "example/app:1", image(root, "app", "SIGUSR1"),
        "example/root:1", image(root, "", null),
        "example/ghost:1", image(root, "ghost", null)));
  }

  @AfterAll
  static void stop() {
    if (run != null) {
      run.close();
    }
  }

  private static Image image(Path root, String user, String stopSignal) {
    return new Image(root, List.of("/bin/sh", "-c"), List.of(), List.of("PATH=/bin"), null, user, stopSignal);
  }

  private static Pod pod(String name, String image, String script, Boolean runAsNonRoot) {
    return new PodBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec()
        .withTerminationGracePeriodSeconds(10L).withNewSecurityContext().withRunAsNonRoot(runAsNonRoot)
        .endSecurityContext().addNewContainer().withName("app").withImage(image).withArgs(script).endContainer()
        .endSpec().build();
  }

  private static ContainerStateWaiting waiting(String name) throws InterruptedException {
    return run.await(name + " waits with a reason", () -> {
      Pod p = run.client.pods().withName(name).get();
      return p == null || p.getStatus() == null || p.getStatus().getContainerStatuses() == null ? null
          : p.getStatus().getContainerStatuses().stream().map(s -> s.getState().getWaiting())
              .filter(w -> w != null && w.getReason() != null && w.getReason().startsWith("CreateContainer"))
              .findFirst().orElse(null);
    }, 20_000);
  }

  @Test
  void theImagesUserRunsTheCommandAndItsStopSignalStopsIt() throws Exception {
    // As PID 1 the shell takes only the signals it traps: SIGTERM would be ignored until SIGKILL (exit 137).
    run.client.pods().resource(pod("as-app", "example/app:1", "trap 'exit 7' USR1; cat /proc/self/status; "
        + "while true; do sleep 0.1; done", null)).create();
    run.await("as-app has set its trap", () -> run.agent.log("default", "as-app", "app").text().contains("Gid:")
        ? true : null, 20_000);
    run.client.pods().withName("as-app").delete();
    Timeline.Entry exited = run.await("as-app exited", () -> run.agent.timeline()
        .first("default/as-app", "app", Mark.EXITED).orElse(null), 20_000);
    Timeline.Entry stop = run.agent.timeline().first("default/as-app", "app", Mark.STOP_SIGNAL).orElseThrow();
    assertEquals("SIGUSR1", Timeline.signal(stop), stop.toString());
    assertTrue(exited.detail().contains("exit code 7"), exited.toString());
    Timeline.Entry output = run.await("as-app's output", () -> run.agent.timeline()
        .first("default/as-app", "app", Mark.OUTPUT).orElse(null), 20_000);
    assertTrue(output.output().matches("(?s).*Uid:\\s+1000\\s.*"), output.output());
    assertTrue(output.output().matches("(?s).*Gid:\\s+1001\\s.*"), "the user's group in the image's passwd: "
        + output.output());
  }

  @Test
  void runAsNonRootRefusesAnImageThatRunsAsRoot() throws Exception {
    run.client.pods().resource(pod("as-root", "example/root:1", "sleep 30", true)).create();
    ContainerStateWaiting w = waiting("as-root");
    assertEquals("CreateContainerConfigError", w.getReason());
    assertTrue(w.getMessage().startsWith("container has runAsNonRoot and image will run as root (pod: \"as-root_default("),
        w.getMessage());
    run.client.pods().withName("as-root").delete();
  }

  @Test
  void aUserTheImageDoesNotKnowCannotBeCreated() throws Exception {
    run.client.pods().resource(pod("as-ghost", "example/ghost:1", "sleep 30", null)).create();
    ContainerStateWaiting w = waiting("as-ghost");
    assertEquals("CreateContainerError", w.getReason());
    assertTrue(w.getMessage().contains("no users found") && w.getMessage().contains("ghost"), w.getMessage());
    run.client.pods().withName("as-ghost").delete();
  }

  @Test
  void theImagesGroupPartIsDroppedAndRunAsGroupWins() throws Exception {
    Path root = dir.resolve("tiny");
    Pod plain = pod("p", "x", "true", null);
    Image numeric = image(root, "1000:5", null);
    assertEquals(new Sandbox.Identity(1000, 1001), ContainerUser.of(plain, plain.getSpec().getContainers().get(0),
        numeric), "the kubelet passes only the uid on; the runtime finds its group in /etc/passwd");
    Image unknownUid = image(root, "4242", null);
    assertEquals(new Sandbox.Identity(4242, 0), ContainerUser.of(plain, plain.getSpec().getContainers().get(0),
        unknownUid));
    Pod grouped = new PodBuilder(plain).editSpec().editFirstContainer().withNewSecurityContext().withRunAsGroup(42L)
        .endSecurityContext().endContainer().endSpec().build();
    assertEquals(new Sandbox.Identity(1000, 42), ContainerUser.of(grouped, grouped.getSpec().getContainers().get(0),
        numeric));
    Pod nonRootName = pod("n", "x", "true", true);
    ContainerUser.Refused refused = assertThrows(ContainerUser.Refused.class, () -> ContainerUser.of(nonRootName,
        nonRootName.getSpec().getContainers().get(0), image(root, "app", null)));
    assertTrue(refused.getMessage().startsWith("container has runAsNonRoot and image has non-numeric user (app)"),
        refused.getMessage());
    assertEquals(Optional.of(new StopSignal("SIGRTMIN+3", 37)), StopSignal.parse("sigrtmin+3"));
    assertEquals(Optional.of(new StopSignal("SIGQUIT", 3)), StopSignal.parse("3"));
    assertEquals(Optional.empty(), StopSignal.parse("SIGNOPE"));
  }
}
