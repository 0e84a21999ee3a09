package io.hooklens.bench;

import io.hooklens.run.cluster.EmbeddedCluster;
import java.lang.management.ManagementFactory;

/**
 * One cold start of the embedded cluster, for {@code benchmarks/run-start.sh}, which launches a fresh JVM
 * for each: prints the milliseconds from this JVM's start to main, from main until the API endpoint is
 * started, until it has answered a first request through the client (a list of pods, as the node
 * agent's watch and the runner's create need), the CPU time the process used until then (all threads;
 * less sensitive than wall time to other load on the machine), and how long closing it takes.
 */
public final class ClusterStart {
  private ClusterStart() {}

  public static void main(String[] args) {
    long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
    long main = System.currentTimeMillis();
    long t0 = System.nanoTime();
    EmbeddedCluster cluster = EmbeddedCluster.start();
    long started = System.nanoTime();
    cluster.client().pods().list();
    long answered = System.nanoTime();
    long cpu = ProcessHandle.current().info().totalCpuDuration().map(d -> d.toMillis()).orElse(-1L);
    cluster.close();
    long closed = System.nanoTime();
    System.out.printf("jvm-to-main %d ms, start %d ms, first-request %d ms, cpu %d ms, close %d ms%n",
        main - jvmStart, (started - t0) / 1_000_000, (answered - t0) / 1_000_000, cpu, (closed - answered) / 1_000_000);
    // As the hooklens command ends: without waiting for the HTTP client's threads to wind down.
    System.exit(0);
  }
}
