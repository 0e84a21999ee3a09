package io.hooklens.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.core.engine.Linter;
import io.hooklens.rules.BuiltInRules;
import io.hooklens.run.cluster.EmbeddedClusterTest;
import io.hooklens.run.node.SandboxEscapeTest;
import io.hooklens.run.process.Launcher;
import io.hooklens.run.report.RunReport;
import io.hooklens.run.report.Verdict;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --cluster envtest}: the same hooks on a real etcd and kube-apiserver (with the controller manager and
 * scheduler) started for the run, the node agent as their kubelet. Skipped without the binaries.
 */
@Tag("slow")
class ControlPlaneRunTest {
  private static final Linter LINTER = new Linter(BuiltInRules.registry());
  private static final Pattern PORT = Pattern.compile("127\\.0\\.0\\.1:(\\d+)|peer port (\\d+)");
  private static final Pattern FOLDER = Pattern.compile("logs in (\\S+)");

  @TempDir
  Path dir;

  @BeforeEach
  void needsBinaries() {
    RunFixture.binariesOrSkip();
  }

  private static RunPlan plan(String file) throws IOException {
    Path path = Path.of("..", "examples", file);
    RunPlan plan = RunPlan.of(LINTER.parse(path.toString(), Files.readString(path)), Selection.all());
    assertEquals(List.of(), plan.problems());
    return plan;
  }

  @Test
  void overrunGivesTheEmbeddedVerdictsOnAPodTheRealApiServerDefaultedAndLeavesNothing() throws Exception {
    List<String> progress = new CopyOnWriteArrayList<>();
    PodBeforeDeletion pod = new PodBeforeDeletion("overrun-deployment", progress);
    RunReport report;
    RunPlan overrun = plan("overrun.yaml");
    try (Runner runner = pod.runner()) {
      report = runner.run(overrun, List.of());
    }
    assertEquals("envtest", report.target());
    // Defaults only a real API server fills in, and the real scheduler's binding to the registered node.
    for (String defaulted : List.of("\"dnsPolicy\": \"ClusterFirst\"", "\"schedulerName\": \"default-scheduler\"",
        "\"terminationMessagePath\": \"/dev/termination-log\"", "\"tolerationSeconds\": 300",
        "\"nodeName\": \"hooklens-node\"", "\"enableServiceLinks\": true")) {
      assertTrue(pod.json().contains(defaulted), defaulted + " in " + pod.json());
    }
    RunReport embedded;
    try (Runner runner = Runner.embedded(Images.NONE, 60, (s, p, what) -> { })) {
      embedded = runner.run(plan("overrun.yaml"), List.of());
    }
    assertEquals(verdicts(embedded), verdicts(report));
    assertEquals(List.of(), leftovers(progress));
  }

  @Test
  void aPodWithoutAGracePeriodGetsTheApiServersThirtySeconds() throws Exception {
    Path manifest = dir.resolve("default-grace.yaml");
    Files.writeString(manifest, """
        apiVersion: v1
        kind: Pod
        metadata:
          name: default-grace
        spec:
          containers:
            - name: app
              image: debian:12
              command: ["sh", "-c", "trap 'exit 0' TERM; while true; do sleep 0.1; done"]
              lifecycle:
                preStop:
                  exec:
                    command: ["true"]
        """);
    RunPlan plan = RunPlan.of(LINTER.parse(manifest.toString(), Files.readString(manifest)), Selection.all());
    List<String> progress = new CopyOnWriteArrayList<>();
    PodBeforeDeletion pod = new PodBeforeDeletion("default-grace", progress);
    try (Runner runner = pod.runner()) {
      assertTrue(runner.run(plan, List.of()).succeeded());
    }
    assertTrue(pod.json().contains("\"terminationGracePeriodSeconds\": 30"), pod.json());
    assertEquals(List.of(), leftovers(progress));
  }

  @Test
  void aHostPathTheManifestMountsWritableIsWritableThoughTheApiServerDropsReadOnlyFalse() throws Exception {
    Path host = Files.createDirectories(dir.resolve("host"));
    Path shut = Files.createDirectories(dir.resolve("shut"));
    RunFixture.openToSandbox(dir, true);
    Path manifest = dir.resolve("host-path.yaml");
    Files.writeString(manifest, """
        apiVersion: v1
        kind: Pod
        metadata:
          name: host-path
        spec:
          terminationGracePeriodSeconds: 2
          volumes:
            - {name: host, hostPath: {path: %s}}
            - {name: shut, hostPath: {path: %s}}
          containers:
            - name: app
              image: debian:12
              command: ["sh", "-c", "echo written > /host/out; echo written > /shut/out; trap 'exit 0' TERM; while true; do sleep 0.1; done"]
              volumeMounts:
                - {name: host, mountPath: /host, readOnly: false}
                - {name: shut, mountPath: /shut}
              lifecycle:
                preStop:
                  exec:
                    command: ["sh", "-c", "echo drained >> /host/out"]
        """.formatted(host, shut));
    RunPlan plan = RunPlan.of(LINTER.parse(manifest.toString(), Files.readString(manifest)), Selection.all());
    List<String> progress = new CopyOnWriteArrayList<>();
    try (Runner runner = Runner.envtest(null, Images.NONE, 60, (s, p, what) -> progress.add(what))) {
      runner.run(plan, List.of());
    }
    assertEquals("written\ndrained\n", Files.readString(host.resolve("out")), "readOnly: false in the manifest");
    assertFalse(Files.exists(shut.resolve("out")), "a hostPath is read-only unless the manifest says otherwise");
    assertEquals(List.of(), leftovers(progress));
  }

  @Test
  void aManifestTheApiServerRejectsIsRefusedWithItsMessageBeforeAnythingRuns() throws Exception {
    Path manifest = dir.resolve("rejected.yaml");
    Files.writeString(manifest, """
        apiVersion: v1
        kind: Pod
        metadata:
          name: too-long
        spec:
          terminationGracePeriodSeconds: 5
          containers:
            - name: app
              image: debian:12
              command: ["sh", "-c", "while true; do sleep 1; done"]
              lifecycle:
                preStop:
                  sleep:
                    seconds: 20
        """);
    RunPlan plan = RunPlan.of(LINTER.parse(manifest.toString(), Files.readString(manifest)), Selection.all());
    assertEquals(List.of(), plan.problems(), "the mock and the plan take it");
    List<String> progress = new CopyOnWriteArrayList<>();
    try (Runner runner = Runner.envtest(null, Images.NONE, 60, (s, p, what) -> progress.add(what))) {
      RunException refused = assertThrows(RunException.class, () -> runner.run(plan, List.of()));
      assertTrue(refused.getMessage().contains("Pod \"too-long\" is invalid: spec.containers[0].lifecycle.preStop"
          + ".sleep: Invalid value: 20: must be non-negative and less than terminationGracePeriodSeconds (5)"),
          refused.getMessage());
    }
    assertFalse(progress.stream().anyMatch(p -> p.startsWith("pod created") || p.contains("started")),
        progress.toString());
    assertEquals(List.of(), leftovers(progress));
  }

  @Test
  void sigintWhileTheControlPlaneStartsLeavesNoProcessPortOrFolder() throws Exception {
    Path tmp = Files.createDirectory(dir.resolve("tmp"));
    Path log = dir.resolve("cli.log");
    Process cli = startCli(tmp, log, "etcd ready");
    new ProcessBuilder("kill", "-INT", String.valueOf(cli.pid())).start().waitFor();
    assertTrue(cli.waitFor(60, TimeUnit.SECONDS), "the CLI ended on SIGINT");
    String output = Files.readString(log);
    assertFalse(output.contains("pod created"), output);
    assertEquals(List.of(), SandboxEscapeTest.markedBy(cli.pid()), output);
    assertEquals(List.of(), listening(output), output);
    try (Stream<Path> left = Files.list(tmp)) {
      assertEquals(List.of(), left.toList(), "temporary folders left");
    }
  }

  @Test
  void sigkillOfTheJvmMidRunTakesTheControlPlaneAndTheContainersAlong() throws Exception {
    Assumptions.assumeTrue(Launcher.killsWithJvm(), "no setpriv with --pdeathsig on this machine");
    Path log = dir.resolve("cli.log");
    Process cli = startCli(Files.createDirectory(dir.resolve("tmp")), log, "pod created");
    try {
      assertFalse(SandboxEscapeTest.markedBy(cli.pid()).isEmpty(), "the control plane runs");
      new ProcessBuilder("kill", "-KILL", String.valueOf(cli.pid())).start().waitFor();
      assertTrue(cli.waitFor(60, TimeUnit.SECONDS), "the CLI ended on SIGKILL");
      String output = Files.readString(log);
      // No shutdown hook ran: what is gone, the kernel killed. Given a while on a busy machine, ports too: an
      // exiting process's environment is unreadable before its sockets close.
      long deadline = System.currentTimeMillis() + 60_000;
      while (System.currentTimeMillis() < deadline
          && !(SandboxEscapeTest.markedBy(cli.pid()).isEmpty() && listening(output).isEmpty())) {
        Thread.sleep(100);
      }
      assertEquals(List.of(), SandboxEscapeTest.markedBy(cli.pid()), output);
      assertEquals(List.of(), listening(output), output);
    } finally {
      for (String left : SandboxEscapeTest.markedBy(cli.pid())) {
        ProcessHandle.of(Long.parseLong(left.split(" ", 2)[0])).ifPresent(ProcessHandle::destroyForcibly);
      }
    }
  }

  /** {@code hooklens run --cluster envtest} on overrun.yaml in a JVM of its own, once its output has {@code seen}. */
  private static Process startCli(Path tmp, Path log, String seen) throws IOException, InterruptedException {
    // A shell starting a build in the background ignores SIGINT for it, and a JVM keeps an ignored SIGINT ignored:
    // the CLI gets the default back, as a terminal gives it.
    Process cli = new ProcessBuilder("env", "--default-signal=INT",
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Djava.io.tmpdir=" + tmp, "-cp", System.getProperty("java.class.path"), "io.hooklens.cli.Main", "run",
        "--yes", "--cluster", "envtest", Path.of("..", "examples", "overrun.yaml").toString())
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    long deadline = System.currentTimeMillis() + 120_000;
    while (!Files.readString(log).contains(seen) && cli.isAlive() && System.currentTimeMillis() < deadline) {
      Thread.sleep(20);
    }
    if (!Files.readString(log).contains(seen)) {
      cli.destroy();
      cli.waitFor(60, TimeUnit.SECONDS);
      throw new AssertionError("no \"" + seen + "\" from the CLI: " + Files.readString(log));
    }
    return cli;
  }

  /**
   * A run on a control plane whose progress, when the runner is about to delete {@code name} (its containers
   * started, so it is bound), reads the pod as the API server stores it with kubectl; the run waits meanwhile.
   */
  private static final class PodBeforeDeletion {
    private final String name;
    private final List<String> progress;
    private final AtomicReference<Runner> runner = new AtomicReference<>();
    private volatile String json;

    PodBeforeDeletion(String name, List<String> progress) {
      this.name = name;
      this.progress = progress;
    }

    Runner runner() {
      runner.set(Runner.envtest(null, Images.NONE, 60, (s, p, what) -> {
        progress.add(what);
        if (p.equals(name) && what.startsWith("deleting") && json == null) {
          try {
            json = EmbeddedClusterTest.kubectl(runner.get().kubeconfig().orElseThrow(), "get", "pod", name, "-o",
                "json");
          } catch (IOException | InterruptedException e) {
            json = "kubectl failed: " + e;
          }
        }
      }));
      return runner.get();
    }

    String json() {
      assertTrue(json != null, "the runner never deleted pod " + name + ": " + progress);
      return json;
    }
  }

  private static List<String> verdicts(RunReport report) {
    return report.steps().stream().flatMap(s -> s.verdicts().stream()).map(ControlPlaneRunTest::verdict).toList();
  }

  private static String verdict(Verdict v) {
    return v.container() + " " + v.hook() + " " + v.ok() + " " + v.rules();
  }

  /** Control-plane processes of this JVM, ports the run's progress named that still listen, and its folder. */
  private static List<String> leftovers(List<String> progress) throws IOException {
    String all = String.join("\n", progress);
    List<String> left = new ArrayList<>(SandboxEscapeTest.markedBy(ProcessHandle.current().pid()));
    left.addAll(listening(all));
    Matcher folder = FOLDER.matcher(all);
    while (folder.find()) {
      if (Files.exists(Path.of(folder.group(1)))) {
        left.add("folder " + folder.group(1));
      }
    }
    return left;
  }

  private static List<String> listening(String text) throws IOException {
    List<String> open = new ArrayList<>();
    Matcher m = PORT.matcher(text);
    while (m.find()) {
      int port = Integer.parseInt(m.group(1) != null ? m.group(1) : m.group(2));
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
        open.add("port " + port);
      } catch (ConnectException e) {
        // Closed, as it should be.
      }
    }
    return open;
  }
}
