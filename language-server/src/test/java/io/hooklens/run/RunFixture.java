package io.hooklens.run;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hooklens.run.cluster.EmbeddedCluster;
import io.hooklens.run.controllers.JobController;
import io.hooklens.run.node.Image;
import io.hooklens.run.node.NodeAgent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * An embedded cluster with its node agent (bubblewrap required) and Job controller, with back-offs short
 * enough for tests; and the waits tests need, bounded, never a bare sleep.
 */
public final class RunFixture implements AutoCloseable {
  public final EmbeddedCluster cluster = EmbeddedCluster.start();
  public final KubernetesClient client = cluster.client();
  public final NodeAgent agent;
  public final JobController jobs = JobController.start(client, Duration.ofMillis(200));

  public RunFixture() {
    this(Map.of());
  }

  /** @param images the images the node has, by name */
  public RunFixture(Map<String, Image> images) {
    agent = NodeAgent.start(client, images).restartBackoff(Duration.ofMillis(200));
    assertTrue(agent.isolated(), "bubblewrap must be installed (run-tests installs it)");
  }

  /** Waits until {@code value} gives a non-null result, for at most {@code millis}. */
  public <T> T await(String what, Supplier<T> value, long millis) throws InterruptedException {
    long deadline = System.currentTimeMillis() + millis;
    while (System.currentTimeMillis() < deadline) {
      T result = value.get();
      if (result != null) {
        return result;
      }
      Thread.sleep(20);
    }
    fail("never: " + what + "; node timeline: " + agent.timeline().entries());
    return null;
  }

  /**
   * Opens a folder of the test to the sandbox's user, as a user must for a hostPath or an unpacked image: the
   * containers run as an unprivileged uid, which may read (and, when {@code writable}, write) only what
   * everybody may. JUnit's temporary folders are the owner's alone.
   */
  public static void openToSandbox(Path dir, boolean writable) throws IOException {
    Set<PosixFilePermission> folders = PosixFilePermissions.fromString(writable ? "rwxrwxrwx" : "rwxr-xr-x");
    try (Stream<Path> tree = Files.walk(dir)) {
      for (Path p : tree.toList()) {
        if (Files.isSymbolicLink(p)) {
          continue;
        }
        Set<PosixFilePermission> mode = Files.isDirectory(p) ? folders : new HashSet<>(Files.getPosixFilePermissions(p));
        if (!Files.isDirectory(p)) {
          mode.add(PosixFilePermission.OTHERS_READ);
          if (mode.contains(PosixFilePermission.OWNER_EXECUTE)) {
            mode.add(PosixFilePermission.OTHERS_EXECUTE);
          }
        }
        Files.setPosixFilePermissions(p, mode);
      }
    }
  }

  /** Events about objects of one kind and name in any namespace, oldest first, as reason and message. */
  public List<String> events(String kind, String name) {
    return client.v1().events().inAnyNamespace().list().getItems().stream()
        .filter(e -> kind.equals(e.getInvolvedObject().getKind()) && name.equals(e.getInvolvedObject().getName()))
        .map(RunFixture::describe).toList();
  }

  /**
   * The events about an object once one with {@code reason} is among them: a controller records the event
   * after the status it explains, so a test that saw the status waits for it.
   */
  public List<String> eventsUntil(String kind, String name, String reason) throws InterruptedException {
    return await(kind + "/" + name + " has a " + reason + " event", () -> {
      List<String> events = events(kind, name);
      return events.stream().anyMatch(e -> e.startsWith(reason + ":")) ? events : null;
    }, 20_000);
  }

  private static String describe(Event e) {
    return e.getReason() + ": " + e.getMessage();
  }

  @Override
  public void close() {
    jobs.close();
    agent.close();
    cluster.close();
  }
}
