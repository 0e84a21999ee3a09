package io.hooklens.run;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hooklens.run.cluster.EmbeddedCluster;
import io.hooklens.run.controllers.JobController;
import io.hooklens.run.node.NodeAgent;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * An embedded cluster with its node agent (bubblewrap required) and Job controller, with back-offs short
 * enough for tests; and the waits tests need, bounded, never a bare sleep.
 */
public final class RunFixture implements AutoCloseable {
  public final EmbeddedCluster cluster = EmbeddedCluster.start();
  public final KubernetesClient client = cluster.client();
  public final NodeAgent agent = NodeAgent.start(client).restartBackoff(Duration.ofMillis(200));
  public final JobController jobs = JobController.start(client, Duration.ofMillis(200));

  public RunFixture() {
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
