package io.hooklens.run.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hooklens.run.RunFixture;
import io.hooklens.run.Runner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a hostile hook tries, on the embedded node with real processes, as root (as CI runs): each escape must
 * fail. A container's command prints what it got; the test reads it and the host. Perl comes with every
 * Debian base system and reaches the system calls a shell cannot name.
 */
@Tag("slow")
public class SandboxEscapeTest {
  private static RunFixture run;

  @TempDir
  Path dir;

  @BeforeAll
  static void start() {
    run = new RunFixture();
  }

  @AfterAll
  static void stop() {
    run.close();
  }

  /** Runs a pod whose only container runs {@code script} to its end, and returns what it printed. */
  private static String attempt(String name, String script) throws InterruptedException {
    Pod pod = new PodBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec()
        .withRestartPolicy("Never").withTerminationGracePeriodSeconds(2L).addNewContainer().withName("app")
        .withImage("debian:12").withCommand("sh", "-c", script).endContainer().endSpec().build();
    return ended(pod).log();
  }

  /** A pod once it ran to its end, and what its container {@code app} printed. */
  private record Ended(Pod pod, String log) {}

  /** Creates the pod, waits until it has ended, reads what it printed and deletes it. */
  private static Ended ended(Pod pod) throws InterruptedException {
    String name = pod.getMetadata().getName();
    run.client.pods().resource(pod).create();
    Pod done = run.await(name + " ended", () -> {
      Pod p = run.client.pods().withName(name).get();
      return p != null && p.getStatus() != null && List.of("Succeeded", "Failed").contains(p.getStatus().getPhase())
          ? p : null;
    }, 60_000);
    String log = run.agent.log("default", name, "app").text();
    run.client.pods().withName(name).delete();
    return new Ended(done, log);
  }

  private static String perl(String code) {
    return "perl -e '" + code + "' 2>&1";
  }

  @Test
  void theRootAndTheHostsFilesStayReadOnlyAndRemountingIsRefused() throws Exception {
    Path hostFile = Path.of("/usr/hooklens-escape-" + ProcessHandle.current().pid());
    String log = attempt("remount", "mount -o remount,rw /usr 2>&1; echo mount=$?; "
        + "touch " + hostFile + " 2>&1; echo touch=$?; "
        + perl("print syscall(165, my $s=\"none\", my $t=\"/usr\", my $f=\"tmpfs\", 0, 0), \" $!\\n\""));
    assertTrue(log.contains("mount=") && !log.contains("mount=0"), log);
    assertTrue(log.contains("touch=1"), log);
    assertTrue(log.contains("-1 Operation not permitted"), "mount(2) itself is filtered: " + log);
    assertFalse(Files.exists(hostFile));
  }

  @Test
  void aWritableHostPathIsWrittenOnlyAsTheUnprivilegedUser() throws Exception {
    // Owned by root and not writable by others, as the host's own folders are.
    Path owned = Files.createDirectory(dir.resolve("root-owned"),
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
    RunFixture.openToSandbox(dir, false);
    Pod pod = new PodBuilder().withNewMetadata().withName("hostpath-write").endMetadata().withNewSpec()
        .withRestartPolicy("Never").addNewContainer().withName("app").withImage("debian:12")
        .withCommand("sh", "-c", "id -u; touch /host/x 2>&1; echo touch=$?")
        .addNewVolumeMount().withName("host").withMountPath("/host").withReadOnly(false).endVolumeMount()
        .endContainer().addNewVolume().withName("host").withNewHostPath().withPath(owned.toString()).endHostPath()
        .endVolume().endSpec().build();
    String log = ended(pod).log();
    assertTrue(log.startsWith("0\n"), "root inside the container: " + log);
    assertTrue(log.contains("Permission denied") && log.contains("touch=1"), log);
    assertFalse(Files.exists(owned.resolve("x")));
  }

  @Test
  void secretsOfTheHostAreNotThere() throws Exception {
    String log = attempt("secrets", "cat /etc/shadow 2>&1; echo shadow=$?; ls /root /home /run /var/lib 2>&1; "
        + "ls /etc/ssh 2>&1; echo done");
    assertTrue(log.contains("shadow=1"), log);
    assertFalse(log.contains("root:"), log);
    for (String gone : List.of("/root", "/home", "/run", "/var/lib", "/etc/ssh")) {
      assertTrue(log.contains("ls: cannot access '" + gone + "': No such file or directory"), gone + " in " + log);
    }
  }

  @Test
  void aHostUnixSocketCannotBeReached() throws Exception {
    Path sockets = Files.createDirectory(dir.resolve("sockets"),
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxrwxrwx")));
    RunFixture.openToSandbox(dir, false);
    Path socket = sockets.resolve("host.sock");
    try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      server.bind(UnixDomainSocketAddress.of(socket));
      Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rwxrwxrwx"));
      server.configureBlocking(false);
      // Named in the command, and under /tmp: the node binds files a command names there, never a socket.
      String log = attempt("unix-socket", perl("use IO::Socket::UNIX; IO::Socket::UNIX->new(Peer => \"" + socket
          + "\") or die \"refused: $!\\n\"; print \"CONNECTED\\n\""));
      assertFalse(log.contains("CONNECTED"), log);
      assertTrue(log.contains("refused"), log);
      assertEquals(null, server.accept(), "the host's socket was reached");
    }
  }

  @Test
  void theHostsLoopbackCannotBeReached() throws Exception {
    try (ServerSocketChannel host = ServerSocketChannel.open()) {
      host.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      host.configureBlocking(false);
      int port = ((InetSocketAddress) host.getLocalAddress()).getPort();
      String log = attempt("loopback", "bash -c 'exec 3<>/dev/tcp/127.0.0.1/" + port + " && echo CONNECTED' 2>&1");
      assertFalse(log.contains("CONNECTED"), log);
      assertEquals(null, host.accept(), "the host's loopback was reached");
    }
  }

  @Test
  void noCapabilityCanBeHadAndNoNewNamespaceMade() throws Exception {
    String log = attempt("capabilities", "grep -E '^Cap(Prm|Eff|Bnd|Amb)|^NoNewPrivs|^Seccomp:' /proc/self/status; "
        + "unshare -U true 2>&1; echo unshare=$?; "
        + perl("print syscall(250, 0, 0, 0, 0, 0), \" keyctl $!\\n\""));
    for (String line : List.of("CapPrm:\t0000000000000000", "CapEff:\t0000000000000000",
        "CapBnd:\t0000000000000000", "CapAmb:\t0000000000000000", "NoNewPrivs:\t1", "Seccomp:\t2")) {
      assertTrue(log.contains(line), line + " in " + log);
    }
    assertFalse(log.contains("unshare=0"), log);
    assertTrue(log.contains("-1 keyctl Operation not permitted"), log);
  }

  @Test
  void anotherProcessCannotBeTraced() throws Exception {
    // PTRACE_ATTACH (16) to a process of the same user in the same container.
    String log = attempt("ptrace", "sleep 30 & perl -e 'print syscall(101, 16, $ARGV[0], 0, 0), \" $!\\n\"' $! 2>&1; "
        + "kill $!");
    assertTrue(log.contains("-1 Operation not permitted"), "PTRACE_ATTACH is filtered: " + log);
  }

  @Test
  void aForkBombStopsAtTheProcessLimit() throws Exception {
    String log = attempt("fork-bomb", perl("my $n = 0; while ($n < 5000) { my $p = fork(); if (!defined $p) "
        + "{ print \"limit at $n\\n\"; last } if ($p == 0) { sleep 60; exit } $n++ }"));
    assertTrue(log.startsWith("limit at "), log);
    int at = Integer.parseInt(log.substring("limit at ".length()).strip());
    assertTrue(at < Sandbox.MAX_PROCESSES, "stopped at " + at);
  }

  @Test
  void runAsUserIsTheUidInsideAndTheSandboxsUidOutside() throws Exception {
    RunFixture.openToSandbox(dir, true);
    Pod pod = new PodBuilder().withNewMetadata().withName("identity").endMetadata().withNewSpec()
        .withRestartPolicy("Never").withNewSecurityContext().withRunAsUser(2000L).withRunAsGroup(3000L)
        .endSecurityContext().addNewContainer().withName("app").withImage("debian:12")
        .withCommand("sh", "-c", "id -u; id -g; touch /out/made").withNewSecurityContext().withRunAsUser(1000L)
        .endSecurityContext()
        .addNewVolumeMount().withName("out").withMountPath("/out").withReadOnly(false).endVolumeMount()
        .endContainer().addNewVolume().withName("out").withNewHostPath().withPath(dir.toString()).endHostPath()
        .endVolume().endSpec().build();
    // The container's runAsUser wins over the pod's; the group is the pod's.
    assertEquals("1000\n3000\n", ended(pod).log());
    assertEquals(Sandbox.hostUid(), Files.getAttribute(dir.resolve("made"), "unix:uid"), "the host sees the sandbox's uid");
  }

  @Test
  void aContainerOverItsMemoryLimitIsKilled() throws Exception {
    assumeTrue(NodeAgent.enforcesMemoryLimits(), "no cgroup v1 memory controller this process may use here");
    Pod pod = new PodBuilder().withNewMetadata().withName("memory").endMetadata().withNewSpec()
        .withRestartPolicy("Never").addNewContainer().withName("app").withImage("debian:12")
        .withCommand("perl", "-e", "my $x = \"a\" x (300 * 1024 * 1024); print \"allocated\\n\"")
        .withNewResources().addToLimits("memory", new Quantity("64Mi")).endResources()
        .endContainer().endSpec().build();
    Ended memory = ended(pod);
    assertEquals("Failed", memory.pod().getStatus().getPhase());
    assertEquals(137, memory.pod().getStatus().getContainerStatuses().get(0).getState().getTerminated().getExitCode());
    assertFalse(memory.log().contains("allocated"));
  }

  @Test
  void whatAContainerLeavesBehindEndsWithIt() throws Exception {
    // A background child, a double fork and a new session: all in the container's PID namespace. The node shows
    // the container ended only once they are gone, so nothing may be left when the test sees it, however late.
    attempt("leftovers", "sleep 300 & (sleep 301 &) ; setsid sleep 302 & echo started");
    assertEquals(List.of(), leftBehind("sleep 30[012]"));
  }

  @Test
  void whatAKilledContainerLeavesBehindEndsWithIt() throws Exception {
    // As PID 1 the shell ignores SIGTERM, which it does not trap: SIGKILL ends it at the grace period's end.
    Pod pod = new PodBuilder().withNewMetadata().withName("killed").endMetadata().withNewSpec()
        .withTerminationGracePeriodSeconds(1L).addNewContainer().withName("app").withImage("debian:12")
        .withCommand("sh", "-c", "sleep 303 & (sleep 304 &) ; setsid sleep 305 & while :; do sleep 1; done")
        .endContainer().endSpec().build();
    run.client.pods().resource(pod).create();
    run.await("the container's children", () -> leftBehind("sleep 30[345]").size() == 3 ? true : null, 60_000);
    run.client.pods().withName("killed").delete();
    // The node removes the pod only once its containers are gone, with all they left.
    run.await("the pod removed", () -> run.client.pods().withName("killed").get() == null ? true : null, 60_000);
    assertEquals(List.of(), leftBehind("sleep 30[345]"));
  }

  @Test
  void interruptedOrTerminatedRunsLeaveNoProcess() throws Exception {
    Path manifest = Files.writeString(dir.resolve("pod.yaml"), """
        apiVersion: v1
        kind: Pod
        metadata:
          name: stubborn
        spec:
          terminationGracePeriodSeconds: 30
          containers:
            - name: app
              image: debian:12
              command: ["sh", "-c", "trap '' TERM; (sleep 310 &); setsid sleep 311 & while true; do sleep 1; done"]
              lifecycle:
                preStop:
                  exec:
                    command: ["sh", "-c", "(sleep 312 &); setsid sleep 313 & sleep 100"]
        """);
    // Without bubblewrap (a PATH with every tool but it) the processes are plain ones, and must go all the same.
    Path noBubblewrap = Files.createDirectory(dir.resolve("bin"));
    try (Stream<Path> tools = Files.list(Path.of("/usr/bin"))) {
      for (Path tool : tools.filter(t -> !t.getFileName().toString().equals("bwrap")).toList()) {
        Files.createSymbolicLink(noBubblewrap.resolve(tool.getFileName()), tool);
      }
    }
    for (String signal : List.of("INT", "TERM", "HUP", "INT (no sandbox)", "TERM (no sandbox)")) {
      boolean plain = signal.endsWith("(no sandbox)");
      ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-cp", System.getProperty("java.class.path"), "io.hooklens.cli.Main", "run", "--yes",
          "--unsafe-no-sandbox", manifest.toString())
          .redirectErrorStream(true).redirectOutput(dir.resolve("cli-" + signal + ".log").toFile());
      if (plain) {
        builder.environment().put("PATH", noBubblewrap.toString());
      }
      Process cli = builder.start();
      // Once the preStop's last process, its sleep 100, runs, every kind of process the run starts is there; on a
      // busy machine that comes well after the two sleeps started before it.
      long deadline = System.currentTimeMillis() + 120_000;
      while (running("sleep 100").isEmpty() && System.currentTimeMillis() < deadline) {
        Thread.sleep(100);
      }
      assertFalse(running("sleep 100").isEmpty(), "the preStop runs: " + Files.readString(dir.resolve("cli-"
          + signal + ".log")));
      new ProcessBuilder("kill", "-" + signal.split(" ")[0], String.valueOf(cli.pid())).start().waitFor();
      assertTrue(cli.waitFor(60, TimeUnit.SECONDS), "the CLI ended on SIG" + signal);
      assertEquals(List.of(), running("sleep 31[0-3]|sleep 100"), "left after SIG" + signal);
      assertEquals(List.of(), markedBy(cli.pid()), "left after SIG" + signal);
      String log = Files.readString(dir.resolve("cli-" + signal + ".log"));
      assertEquals(plain, log.contains(Runner.UNPROTECTED), log);
    }
  }

  /** The command lines of running processes that match {@code regex}. */
  private static List<String> running(String regex) {
    List<String> found = new ArrayList<>();
    ProcessHandle.allProcesses().forEach(p -> {
      String line = cmdline(p.pid());
      if (line.matches("(" + regex + ")")) {
        found.add(p.pid() + " " + line);
      }
    });
    return found;
  }

  /** The processes of this JVM's node agents whose command lines match {@code regex}. */
  private static List<String> leftBehind(String regex) {
    try {
      return markedBy(ProcessHandle.current().pid()).stream().filter(p -> p.split(" ", 2)[1].matches(regex))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Processes of the node agents and control planes of one JVM, by the marker in their environment. */
  public static List<String> markedBy(long jvm) throws IOException {
    String marker = NodeAgent.markerVariable() + "=" + jvm + "-";
    List<String> left = new ArrayList<>();
    try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
      for (Path p : processes.filter(x -> x.getFileName().toString().matches("\\d+")).toList()) {
        try {
          String environ = new String(Files.readAllBytes(p.resolve("environ")), StandardCharsets.UTF_8);
          if (Stream.of(environ.split("\0")).anyMatch(v -> v.startsWith(marker))) {
            left.add(p.getFileName() + " " + cmdline(Long.parseLong(p.getFileName().toString())));
          }
        } catch (IOException e) {
          // Gone meanwhile.
        }
      }
    }
    return left;
  }

  private static String cmdline(long pid) {
    try {
      return new String(Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline")), StandardCharsets.UTF_8)
          .replace('\0', ' ').strip();
    } catch (IOException e) {
      return "";
    }
  }

  /** Without bubblewrap nothing runs, unless asked for in so many words. */
  @Test
  void withoutBubblewrapTheRunIsRefused() throws Exception {
    Path manifest = Files.writeString(dir.resolve("plain.yaml"), """
        apiVersion: v1
        kind: Pod
        metadata:
          name: plain
        spec:
          containers:
            - name: app
              image: debian:12
              command: ["sh", "-c", "echo ran > /tmp/hooklens-unsandboxed"]
        """);
    // A PATH without bubblewrap's folder: the tools are looked up on it.
    ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), "io.hooklens.cli.Main", "run", "--yes", manifest.toString())
        .redirectErrorStream(true);
    builder.environment().put("PATH", dir.toString());
    Process cli = builder.start();
    String out = new String(cli.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(cli.waitFor(60, TimeUnit.SECONDS));
    assertEquals(2, cli.exitValue(), out);
    assertTrue(out.contains("nothing ran: " + Runner.NO_SANDBOX) && out.contains("--unsafe-no-sandbox"), out);
    assertFalse(Files.exists(Path.of("/tmp/hooklens-unsandboxed")));
  }
}
