package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.ChildJvm;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The CLI's heap: a file needs a few times its size, and a directory no more than its largest file, however many
 * files it holds. Each run is a process of its own with a heap limit, and must end with its findings.
 */
@Tag("slow")
class LintMemoryTest {
  private static final int MIB = 1024 * 1024;

  @TempDir
  Path dir;

  /** A Deployment with two containers and hooks that have findings. */
  private static String deployment(int i) {
    return """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: web-%1$d
          labels:
            app: web-%1$d
        spec:
          replicas: 3
          selector:
            matchLabels:
              app: web-%1$d
          template:
            metadata:
              labels:
                app: web-%1$d
            spec:
              containers:
                - name: web
                  image: nginx:1.27
                  ports:
                    - name: http
                      containerPort: 8080
                  lifecycle:
                    preStop:
                      exec:
                        command: ["/bin/sh", "-c", "sleep 15; nginx -s quit; sleep 30"]
                    postStart:
                      httpGet:
                        path: /warmup
                        port: metrics
                        scheme: https
                - name: log-shipper
                  image: fluent/fluent-bit:3.1
                  lifecycle:
                    preStop:
                      exec:
                        command: ["sleep 5"]
        """.formatted(i);
  }

  @Test
  void aLargeFileIsLintedInSixTimesItsSizeOfHeap() throws IOException, InterruptedException {
    Path file = dir.resolve("big.yaml");
    int docs = large(file);
    // The lint before collections packed their scalars ran out of memory here.
    int heap = 6 * 16 + 32;
    ChildJvm r = lint(heap + "m", file);
    assertEquals(1, r.exit(), r.err());
    assertEquals("", r.err());
    assertEquals(docs * findingsPerDeployment(), r.out().lines().count(), "one line per finding");
  }

  /** On four jobs, large files wait for their turn rather than being linted together: the heap of one suffices. */
  @Test
  void largeFilesOnFourJobsAreLintedInTheHeapOfOne() throws IOException, InterruptedException {
    Path tree = Files.createDirectory(dir.resolve("large"));
    int docs = 0;
    for (int i = 0; i < 3; i++) {
      docs += large(tree.resolve("big-" + i + ".yaml"));
    }
    int heap = 6 * 16 + 32;
    ChildJvm r = lint(heap + "m", tree, "--jobs", "4");
    assertEquals(1, r.exit(), r.err());
    assertEquals("", r.err());
    assertEquals(docs * findingsPerDeployment(), r.out().lines().count(), "one line per finding");
  }

  /** Writes Deployments to a file until it holds 16 MiB, and returns how many. */
  private static int large(Path file) throws IOException {
    int docs = 0;
    try (Writer w = Files.newBufferedWriter(file)) {
      for (long size = 0; size < 16L * MIB; docs++) {
        String doc = (docs == 0 ? "" : "---\n") + deployment(docs);
        w.write(doc);
        size += doc.length();
      }
    }
    return docs;
  }

  @ParameterizedTest
  @ValueSource(strings = {"1", "4"})
  void aDirectoryIsLintedInTheSameHeapWhateverItsNumberOfFiles(String jobs) throws IOException, InterruptedException {
    int files = 3_000;
    Path tree = Files.createDirectory(dir.resolve("manifests"));
    for (int i = 0; i < files; i++) {
      Files.writeString(tree.resolve("web-" + i + ".yaml"), deployment(i));
    }
    ChildJvm r = lint("48m", tree, "--jobs", jobs);
    assertEquals(1, r.exit(), r.err());
    assertEquals("", r.err());
    assertEquals(files * findingsPerDeployment(), r.out().lines().count(), "one line per finding");
  }

  /**
   * Lints in a JVM of its own, with the launcher's collector settings and a heap limit, in the GitHub format: one
   * line per finding and nothing else.
   */
  private ChildJvm lint(String heap, Path path, String... options) throws IOException, InterruptedException {
    List<String> jvm = List.of("-XX:+UseSerialGC", "-Xmn32m", "-XX:TieredStopAtLevel=1", "-Xmx" + heap);
    List<String> args = new ArrayList<>(List.of("lint", "-f", "github"));
    args.addAll(List.of(options));
    args.add(path.toString());
    return ChildJvm.run(dir, jvm, Duration.ofMinutes(10), Main.class, args.toArray(String[]::new));
  }

  private int findingsPerDeployment() throws IOException {
    Path one = Files.writeString(dir.resolve("one.yaml"), deployment(0));
    CliRun r = CliRun.of("lint", "-f", "github", one.toString());
    assertTrue(r.out().lines().count() > 0, r.out());
    return (int) r.out().lines().count();
  }
}
