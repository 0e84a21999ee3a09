package io.hooklens.run.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Runs after every other test class: no process any node agent of this JVM started is still running. */
@Tag("slow")
@Order(Integer.MAX_VALUE)
class NoProcessLeftTest {
  @Test
  void noNodeProcessOutlivesTheTests() throws IOException {
    assertEquals(List.of(), leftovers());
  }

  @Test
  void aMarkedProcessIsFound() throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder("sleep", "30");
    builder.environment().put(NodeAgent.markerVariable(), NodeAgent.markerPrefix() + "check");
    Process sleeper = builder.start();
    try {
      assertEquals(1, leftovers().size());
    } finally {
      sleeper.destroyForcibly().waitFor();
    }
  }

  private static List<String> leftovers() throws IOException {
    String marker = NodeAgent.markerVariable() + "=" + NodeAgent.markerPrefix();
    List<String> left = new ArrayList<>();
    try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
      for (Path process : processes.filter(p -> p.getFileName().toString().matches("\\d+")).toList()) {
        try {
          String environ = new String(Files.readAllBytes(process.resolve("environ")), StandardCharsets.UTF_8);
          if (Stream.of(environ.split("\0")).anyMatch(v -> v.startsWith(marker))) {
            left.add(process.getFileName() + " " + Files.readString(process.resolve("cmdline")).replace('\0', ' '));
          }
        } catch (IOException e) {
          // Gone meanwhile, or a kernel thread: not ours.
        }
      }
    }
    return left;
  }
}
