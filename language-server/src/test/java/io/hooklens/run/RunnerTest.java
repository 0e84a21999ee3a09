package io.hooklens.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.core.engine.Linter;
import io.hooklens.rules.BuiltInRules;
import io.hooklens.run.cluster.EmbeddedClusterTest;
import io.hooklens.run.node.TinyImage;
import io.hooklens.run.report.ContainerResult;
import io.hooklens.run.report.HookResult;
import io.hooklens.run.report.RunReport;
import io.hooklens.run.report.Step;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runner on the embedded cluster; {@link ContextRunTest} has the {@code --context} path. */
@Tag("slow")
class RunnerTest {
  private static final Linter LINTER = new Linter(BuiltInRules.registry());

  @TempDir
  Path dir;

  static RunPlan plan(String yaml) {
    RunPlan plan = RunPlan.of(LINTER.parse("test.yaml", yaml), Selection.all());
    assertEquals(List.of(), plan.problems());
    return plan;
  }

  static final String STOPS_ON_TERM = """
      apiVersion: v1
      kind: Pod
      metadata:
        name: ctx
      spec:
        terminationGracePeriodSeconds: %d
        containers:
          - name: app
            image: debian:12
            command: ["sh", "-c", "trap 'exit 0' TERM; while true; do sleep 0.1; done"]
            lifecycle:
              preStop:
                exec:
                  command: ["sh", "-c", "%s"]
      """;

  @Test
  void anEmbeddedRunWritesAKubeconfigThatKubectlReadsWhileItRunsAndDeletesIt() throws Exception {
    try (Runner runner = Runner.embedded(Images.NONE, 20, (s, pod, what) -> { })) {
      CompletableFuture<RunReport> run = CompletableFuture.supplyAsync(() -> {
        try {
          return runner.run(plan(STOPS_ON_TERM.formatted(3, "sleep 2")), List.of());
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
      });
      long deadline = System.currentTimeMillis() + 20_000;
      String pods = "";
      while (!pods.contains("pod/ctx") && System.currentTimeMillis() < deadline) {
        Thread.sleep(100);
        if (runner.kubeconfig().isPresent()) {
          pods = EmbeddedClusterTest.kubectl(runner.kubeconfig().get(), "get", "pods,events");
        }
      }
      assertTrue(pods.contains("pod/ctx"), pods);
      Path kubeconfig = runner.kubeconfig().get();
      run.get(30, TimeUnit.SECONDS);
      runner.close();
      assertTrue(runner.kubeconfig().isEmpty());
      assertFalse(Files.exists(kubeconfig), "the kubeconfig goes with the cluster");
    }
  }

  @Test
  void anImageRootIsTheContainersFilesystemForItsCommandAndItsHooks() throws Exception {
    Path root = TinyImage.build(dir.resolve("tiny"));
    Files.writeString(root.resolve("etc/image-name"), "tiny image\n");
    RunFixture.openToSandbox(dir, false);
    String yaml = """
        apiVersion: v1
        kind: Pod
        metadata:
          name: tiny
        spec:
          terminationGracePeriodSeconds: 2
          containers:
            - name: app
              image: example/tiny:1
              command: ["/bin/sh", "-c", "trap 'exit 0' TERM; cat /etc/image-name; while true; do sleep 0.1; done"]
              lifecycle:
                postStart:
                  exec:
                    command: ["/bin/cat", "/etc/image-name"]
        """;
    RunReport report;
    try (Images images = Images.of(Map.of("example/tiny:1", root), Map.of());
        Runner runner = Runner.embedded(images, 20, (s, pod, what) -> { })) {
      report = runner.run(plan(yaml), List.of());
    }
    HookResult postStart = report.steps().get(0).hooks().get(0);
    assertEquals("succeeded", postStart.status(), postStart.toString());
    assertEquals("tiny image\n", postStart.output());
    assertTrue(report.succeeded(), report.toString());
  }

  @Test
  void anInitContainerRunsBeforeTheAppWhoseHooksSeeWhatItPrepared() throws Exception {
    String yaml = """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: prepared
        spec:
          template:
            spec:
              terminationGracePeriodSeconds: 2
              initContainers:
                - name: prepare
                  image: debian:12
                  command: ["sh", "-c", "echo prepared > /shared/state"]
                  volumeMounts: [{name: shared, mountPath: /shared}]
              containers:
                - name: app
                  image: debian:12
                  command: ["sh", "-c", "trap 'exit 0' TERM; while true; do sleep 0.1; done"]
                  volumeMounts: [{name: shared, mountPath: /shared}]
                  lifecycle:
                    preStop:
                      exec:
                        command: ["cat", "/shared/state"]
              volumes: [{name: shared, emptyDir: {}}]
        """;
    RunPlan plan = plan(yaml);
    assertTrue(plan.pods().get(0).notes().contains("init container \"prepare\" runs first, to completion: sh -c "
        + "'echo prepared > /shared/state'"), plan.pods().get(0).notes().toString());
    RunReport report;
    try (Runner runner = Runner.embedded(Images.NONE, 20, (s, pod, what) -> { })) {
      report = runner.run(plan, List.of());
    }
    HookResult preStop = report.steps().get(0).hooks().get(0);
    assertEquals("prepared\n", preStop.output(), preStop.toString());
    assertTrue(report.succeeded(), report.toString());
    // The app was sent SIGTERM after its preStop, so how it ended would differ without the sandbox.
    assertTrue(Runner.notPidOne(report.steps()).endsWith("depend on it: " + report.steps().get(0).pod() + "/app"),
        Runner.notPidOne(report.steps()));
  }

  @Test
  void aPodWithAReadinessProbeIsDeletedOnlyOnceItIsReady() throws Exception {
    // The app is ready after two seconds; its preStop succeeds only on a ready app, as on a cluster, where the pod
    // is deleted only once its rollout saw it Ready.
    String yaml = """
        apiVersion: v1
        kind: Pod
        metadata:
          name: warming
        spec:
          terminationGracePeriodSeconds: 5
          containers:
            - name: app
              image: debian:12
              command: ["sh", "-c", "trap 'exit 0' TERM; sleep 2; touch /tmp/ready; while :; do sleep 0.1; done"]
              readinessProbe:
                exec:
                  command: ["test", "-f", "/tmp/ready"]
                periodSeconds: 1
              lifecycle:
                preStop:
                  exec:
                    command: ["test", "-f", "/tmp/ready"]
        """;
    List<String> progress = new java.util.concurrent.CopyOnWriteArrayList<>();
    RunReport report;
    try (Runner runner = Runner.embedded(Images.NONE, 60, (s, pod, what) -> progress.add(what))) {
      report = runner.run(plan(yaml), List.of());
    }
    HookResult preStop = report.steps().get(0).hooks().get(0);
    assertEquals("succeeded", preStop.status(), preStop + "; progress " + progress);
    assertTrue(progress.contains("pod Ready: its probes pass"), progress.toString());
    // The report says when the probe made it Ready, just before the deletion, and how the probe failed before.
    Step step = report.steps().get(0);
    ContainerResult app = step.containers().get(0);
    assertTrue(app.readyMs() != null && app.readyMs() > app.runningMs() && app.readyMs() <= step.deleteMs(),
        app + " deleted at " + step.deleteMs());
    assertTrue(app.probes().stream().anyMatch(p -> ContainerResult.ProbeMark.UNHEALTHY.equals(p.kind())
        && p.message().startsWith("Readiness probe failed: ")), app.probes().toString());
  }

  @Test
  void aPlanNamesWhatTheNodeDoesNotDoOfAContainer() throws Exception {
    String yaml = """
        apiVersion: v1
        kind: Pod
        metadata:
          name: limited
        spec:
          containers:
            - name: app
              image: nginx:1.27
              command: ["sh", "-c", "sleep 1"]
              resources:
                limits: {cpu: 500m, memory: 64Mi, ephemeral-storage: 1Gi}
              readinessProbe:
                tcpSocket: {port: 8080, host: db.internal}
              lifecycle:
                stopSignal: SIGQUIT
                preStop:
                  exec:
                    command: ["true"]
        """;
    assertEquals(List.of(
        "container \"app\": image nginx:1.27 is not given (--image, --image-root): its command runs on this "
            + "machine's files",
        "container \"app\": lifecycle.stopSignal SIGQUIT is dropped, as an API server without the "
            + "ContainerStopSignals feature gate (alpha, off by default) drops it: it is stopped with SIGTERM",
        "container \"app\": readinessProbe to host db.internal fails here: the embedded node probes only the pod "
            + "itself",
        "container \"app\": resources.limits.cpu is not enforced",
        "container \"app\": resources.limits.ephemeral-storage is not enforced"), plan(yaml).pods().get(0).notes());
  }

  @Test
  void anImageArchiveGivesAContainerWithoutCommandItsFilesEntrypointEnvAndWorkingDirectory() throws Exception {
    Path root = TinyImage.build(dir.resolve("tiny"));
    Files.createDirectories(root.resolve("work"));
    Path archive = dockerSave(root, "example/tiny:2", """
        {"config":{"Entrypoint":["/bin/sh","-c"],
          "Cmd":["trap 'exit 0' TERM; echo \\"$GREETING from $PWD\\" > /tmp/said; while true; do sleep 0.1; done"],
          "Env":["PATH=/bin","GREETING=hello"],"WorkingDir":"/work"}}
        """);
    String yaml = """
        apiVersion: v1
        kind: Pod
        metadata:
          name: saved
        spec:
          terminationGracePeriodSeconds: 2
          containers:
            - name: app
              image: example/tiny:2
              lifecycle:
                preStop:
                  exec:
                    command: ["/bin/cat", "/tmp/said"]
        """;
    RunReport report;
    Path unpacked;
    try (Images images = Images.of(Map.of(), Map.of("example/tiny:2", archive))) {
      unpacked = images.root("example/tiny:2");
      assertTrue(Files.isRegularFile(unpacked.resolve("bin/sh")), "the archive's layer is unpacked");
      RunPlan plan = RunPlan.of(LINTER.parse("saved.yaml", yaml), Selection.all(), images);
      assertEquals(List.of(), plan.problems(), "an image with an entrypoint needs no command");
      assertEquals(List.of("/bin/sh", "-c", "trap 'exit 0' TERM; echo \"$GREETING from $PWD\" > /tmp/said; while "
          + "true; do sleep 0.1; done"), plan.pods().get(0).containers().get(0).command());
      try (Runner runner = Runner.embedded(images, 20, (s, pod, what) -> { })) {
        report = runner.run(plan, List.of());
      }
    }
    HookResult preStop = report.steps().get(0).hooks().get(0);
    assertEquals("hello from /work\n", preStop.output(), preStop.toString());
    assertTrue(report.succeeded(), report.toString());
    assertFalse(Files.exists(unpacked), "what was unpacked goes with the run");
    String withoutImage = RunPlan.of(LINTER.parse("saved.yaml", yaml), Selection.all()).problems().get(0);
    assertTrue(withoutImage.contains("docker save example/tiny:2 -o image.tar, then --image example/tiny:2=image.tar"),
        withoutImage);
  }

  /** The tar docker save writes for one image of one layer: the root's files, and the config given. */
  private Path dockerSave(Path root, String name, String config) throws IOException {
    Path layer = dir.resolve("layer.tar");
    try (TarArchiveOutputStream out = new TarArchiveOutputStream(Files.newOutputStream(layer));
        Stream<Path> walk = Files.walk(root)) {
      out.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
      for (Path p : walk.sorted().toList()) {
        if (p.equals(root)) {
          continue;
        }
        String entryName = root.relativize(p).toString();
        TarArchiveEntry e;
        if (Files.isSymbolicLink(p)) {
          e = new TarArchiveEntry(entryName, TarArchiveEntry.LF_SYMLINK);
          e.setLinkName(Files.readSymbolicLink(p).toString());
        } else {
          e = new TarArchiveEntry(p.toFile(), entryName);
          e.setMode((Files.isDirectory(p) ? 040000 : 0100000) | (Files.isExecutable(p) ? 0755 : 0644));
        }
        out.putArchiveEntry(e);
        if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
          Files.copy(p, out);
        }
        out.closeArchiveEntry();
      }
    }
    Path archive = dir.resolve("saved.tar");
    Map<String, byte[]> files = Map.of("manifest.json", ("[{\"Config\":\"config.json\",\"RepoTags\":[\"" + name
        + "\"],\"Layers\":[\"layer/layer.tar\"]}]").getBytes(StandardCharsets.UTF_8),
        "config.json", config.getBytes(StandardCharsets.UTF_8), "layer/layer.tar", Files.readAllBytes(layer));
    try (TarArchiveOutputStream out = new TarArchiveOutputStream(Files.newOutputStream(archive))) {
      for (Map.Entry<String, byte[]> f : files.entrySet()) {
        TarArchiveEntry e = new TarArchiveEntry(f.getKey());
        e.setSize(f.getValue().length);
        out.putArchiveEntry(e);
        out.write(f.getValue());
        out.closeArchiveEntry();
      }
    }
    return archive;
  }
}
