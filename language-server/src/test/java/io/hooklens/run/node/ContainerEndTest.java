package io.hooklens.run.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A container's end as the node sees it ({@link Sandbox.ContainerProcess#gone()}) comes only once nothing the
 * container started still runs, with real processes: in bubblewrap when bubblewrap itself is killed first (as the
 * agent's last sweep may), and as a plain process group. The container prints its children's host PIDs and waits
 * for its standard input to close, so that the test knows them before the end.
 */
@Tag("slow")
class ContainerEndTest {
  private static final String LEAVES_CHILDREN = "sleep 300 & echo $! ; (sleep 301 & echo $!) ; "
      + "setsid sleep 302 & echo $! ; echo started; read line; exit 3";

  @Test
  void whatIsLeftInBubblewrapIsGoneWhenItsEndIsSeenEvenIfBubblewrapWentFirst() throws Exception {
    Sandbox sandbox = Sandbox.detect(NodeAgent.markerPrefix() + "end");
    assertTrue(sandbox.isolated(), "bubblewrap must be installed (run-tests installs it)");
    try (Sandbox.PodNetwork network = sandbox.openNetwork("10.244.0.1")) {
      Sandbox.ContainerProcess container = start(sandbox, network);
      long pid1 = container.main().orElseThrow().pid();
      List<Long> children = hostPids(container, pid1);
      container.process.destroyForcibly();
      container.gone().get(60, TimeUnit.SECONDS);
      children.add(pid1);
      assertEquals(List.of(), running(children));
    } finally {
      sandbox.close();
    }
  }

  @Test
  void whatIsLeftInAProcessGroupIsGoneWhenItsEndIsSeen() throws Exception {
    Sandbox sandbox = Sandbox.plain(NodeAgent.markerPrefix() + "end");
    try (Sandbox.PodNetwork network = sandbox.openNetwork("10.244.0.1")) {
      Sandbox.ContainerProcess container = start(sandbox, network);
      List<Long> children = hostPids(container, container.process.pid());
      try {
        container.process.getOutputStream().close();
        assertEquals(3, container.gone().get(60, TimeUnit.SECONDS));
        // Not the child that left the group with setsid: a plain container is its process group, no more.
        assertEquals(List.of(), running(children.subList(0, 2)));
      } finally {
        children.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
      }
    } finally {
      sandbox.close();
    }
  }

  /**
   * bubblewrap's {@code --die-with-parent} ends the sandbox when the thread that started it ends, not the process: a
   * pod whose network or container was started from a pooled thread that later idles out must live on.
   */
  @Test
  void aSandboxOutlivesTheThreadThatStartedIt() throws Exception {
    Sandbox sandbox = Sandbox.detect(NodeAgent.markerPrefix() + "end");
    assertTrue(sandbox.isolated(), "bubblewrap must be installed (run-tests installs it)");
    Sandbox.PodNetwork[] network = new Sandbox.PodNetwork[1];
    Sandbox.ContainerProcess[] container = new Sandbox.ContainerProcess[1];
    Thread starter = new Thread(() -> {
      try {
        network[0] = sandbox.openNetwork("10.244.0.1");
        container[0] = start(sandbox, network[0]);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    starter.start();
    starter.join();
    try (Sandbox.PodNetwork open = network[0]) {
      long pid1 = container[0].main().orElseThrow().pid();
      List<Long> children = hostPids(container[0], pid1);
      // Death signals are delivered at once; a moment more covers a loaded machine.
      Thread.sleep(500);
      assertTrue(container[0].process.isAlive(), "the container died with the thread that started it");
      assertEquals(children, running(children), "the container's processes died with the starting thread");
      container[0].process.getOutputStream().close();
      assertEquals(3, container[0].gone().get(60, TimeUnit.SECONDS));
    } finally {
      sandbox.close();
    }
  }

  private static Sandbox.ContainerProcess start(Sandbox sandbox, Sandbox.PodNetwork network) throws IOException {
    return sandbox.startContainer(network, "end", List.of("sh", "-c", LEAVES_CHILDREN), Map.of(), null,
        List.of(), null, List.of(), null, new Sandbox.Identity(0, 0));
  }

  /**
   * The children's PIDs as the host sees them: inside bubblewrap the container prints its own namespace's, which
   * are found on the host by the {@code NSpid} line of each process in PID 1's namespace.
   */
  private static List<Long> hostPids(Sandbox.ContainerProcess container, long pid1) throws IOException {
    BufferedReader out = new BufferedReader(new InputStreamReader(container.process.getInputStream(),
        StandardCharsets.UTF_8));
    List<Long> printed = new ArrayList<>();
    for (String line = out.readLine(); !"started".equals(line); line = out.readLine()) {
      assertTrue(line != null, "the container ended early");
      printed.add(Long.parseLong(line.strip()));
    }
    if (pid1 == container.process.pid()) {
      return printed;
    }
    String namespace = Files.readSymbolicLink(Path.of("/proc/" + pid1 + "/ns/pid")).toString();
    List<Long> host = new ArrayList<>();
    try (var processes = Files.list(Path.of("/proc"))) {
      for (Path p : processes.filter(x -> x.getFileName().toString().matches("\\d+")).toList()) {
        try {
          if (!namespace.equals(Files.readSymbolicLink(p.resolve("ns/pid")).toString())) {
            continue;
          }
          String nspid = Files.readAllLines(p.resolve("status")).stream().filter(l -> l.startsWith("NSpid:"))
              .findFirst().orElse("");
          String[] ids = nspid.split("\\s+");
          if (printed.contains(Long.parseLong(ids[ids.length - 1]))) {
            host.add(Long.parseLong(p.getFileName().toString()));
          }
        } catch (IOException | RuntimeException e) {
          // Gone meanwhile, or not ours to read.
        }
      }
    }
    assertEquals(printed.size(), host.size(), "host PIDs of " + printed);
    return host;
  }

  /** Those of the processes that still run: present and not a zombie, whose end is only waiting to be read. */
  private static List<Long> running(List<Long> pids) {
    List<Long> left = new ArrayList<>();
    for (long pid : pids) {
      try {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        if (!stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z")) {
          left.add(pid);
        }
      } catch (IOException e) {
        // Gone.
      }
    }
    return left;
  }
}
