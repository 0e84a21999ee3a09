package io.hooklens.run.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Runs after every other test class of the full lane (the class orderer of junit-platform.properties, surefire
 * running the lane's classes in one request): nothing the suite started outlives it. That is every process with
 * the node's marker (containers, hooks, control-plane binaries) of this JVM, and of a JVM that is gone if it is
 * in this JVM's session (what a {@code hooklens} CLI the tests started left behind), and every TCP port those
 * processes or this JVM (an embedded API nobody closed) still listen on.
 */
@Tag("slow")
@Order(Integer.MAX_VALUE)
class NoProcessLeftTest {
  private static final long SELF = ProcessHandle.current().pid();

  @Test
  void noProcessOrPortOfTheSuiteOutlivesIt() throws IOException {
    assertEquals(List.of(), leftovers());
  }

  @Test
  void thisClassIsOrderedLast() throws IOException {
    Properties junit = new Properties();
    try (InputStream in = NoProcessLeftTest.class.getResourceAsStream("/junit-platform.properties")) {
      junit.load(in);
    }
    assertEquals(ClassOrderer.OrderAnnotation.class.getName(),
        junit.getProperty("junit.jupiter.testclass.order.default"));
    assertEquals(Integer.MAX_VALUE, NoProcessLeftTest.class.getAnnotation(Order.class).value());
  }

  @Test
  void aMarkedProcessOfThisJvmIsFound() throws IOException, InterruptedException {
    assertFound(SELF + "-check");
  }

  @Test
  void aMarkedProcessWhoseJvmIsGoneIsFoundInThisSession() throws IOException, InterruptedException {
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    assertFound(gone.pid() + "-control-plane");
  }

  @Test
  void aPortThisJvmListensOnIsFound() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      String port = "port " + socket.getLocalPort() + " ";
      assertTrue(leftovers().stream().anyMatch(l -> l.startsWith(port)), leftovers().toString());
    }
  }

  private static void assertFound(String marker) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder("sleep", "30");
    builder.environment().put(NodeAgent.markerVariable(), marker);
    Process sleeper = builder.start();
    try {
      String pid = sleeper.pid() + " ";
      assertTrue(leftovers().stream().anyMatch(l -> l.startsWith(pid)), leftovers().toString());
    } finally {
      sleeper.destroyForcibly().waitFor();
    }
  }

  /** Leftover processes ({@code PID COMMAND}), then the ports they or this JVM listen on ({@code port N PID}). */
  private static List<String> leftovers() throws IOException {
    String session = session(SELF).orElseThrow();
    List<String> left = new ArrayList<>();
    List<Long> owners = new ArrayList<>(List.of(SELF));
    String variable = NodeAgent.markerVariable() + "=";
    for (long pid : pids()) {
      try {
        String environ = Files.readString(Path.of("/proc", String.valueOf(pid), "environ"), StandardCharsets.ISO_8859_1);
        Optional<String> marker = Stream.of(environ.split("\0")).filter(v -> v.startsWith(variable))
            .map(v -> v.substring(variable.length())).findFirst();
        if (marker.isEmpty() || !marker.get().matches("\\d+-.*")) {
          continue;
        }
        long jvm = Long.parseLong(marker.get().substring(0, marker.get().indexOf('-')));
        boolean ours = jvm == SELF
            || ProcessHandle.of(jvm).isEmpty() && session(pid).filter(session::equals).isPresent();
        if (ours) {
          left.add(pid + " " + Files.readString(Path.of("/proc", String.valueOf(pid), "cmdline"),
              StandardCharsets.ISO_8859_1).replace('\0', ' ').strip());
          owners.add(pid);
        }
      } catch (IOException e) {
        // Gone meanwhile, or not ours to read.
      }
    }
    left.addAll(listening(owners));
    return left;
  }

  private static List<Long> pids() throws IOException {
    try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
      return processes.map(p -> p.getFileName().toString()).filter(n -> n.matches("\\d+")).map(Long::parseLong)
          .toList();
    }
  }

  /** The session id, the sixth field of {@code /proc/PID/stat} (after the command, which may hold spaces). */
  private static Optional<String> session(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"), StandardCharsets.ISO_8859_1);
      return Optional.of(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[3]);
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** TCP sockets in LISTEN state (IPv4 and IPv6) whose inode one of the processes holds open. */
  private static List<String> listening(List<Long> owners) throws IOException {
    Map<String, Integer> ports = new HashMap<>();
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      List<String> lines = Files.readAllLines(Path.of(table));
      for (String line : lines.subList(1, lines.size())) {
        String[] f = line.trim().split("\\s+");
        if (f[3].equals("0A")) {
          String local = f[1];
          ports.put(f[9], Integer.parseInt(local.substring(local.lastIndexOf(':') + 1), 16));
        }
      }
    }
    List<String> open = new ArrayList<>();
    for (long pid : owners) {
      try (Stream<Path> fds = Files.list(Path.of("/proc", String.valueOf(pid), "fd"))) {
        for (Path fd : fds.toList()) {
          try {
            String target = Files.readSymbolicLink(fd).toString();
            if (target.startsWith("socket:[")) {
              Integer port = ports.get(target.substring(8, target.length() - 1));
              if (port != null) {
                open.add("port " + port + " " + pid);
              }
            }
          } catch (IOException e) {
            // Closed meanwhile.
          }
        }
      } catch (IOException e) {
        // Gone meanwhile.
      }
    }
    return open;
  }
}
