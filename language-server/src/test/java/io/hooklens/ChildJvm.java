package io.hooklens;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A class's main run in a JVM of its own, with the tests' class path, for what only a real process shows:
 * its standard error, which native code writes to as well.
 *
 * @param exit the exit code
 */
public record ChildJvm(int exit, String out, String err) {
  public static ChildJvm run(Path dir, Class<?> main, String... args) throws IOException, InterruptedException {
    return run(dir, List.of(), Duration.ofSeconds(120), main, args);
  }

  /** The same with options for the JVM, such as a heap limit, and a longer or shorter time to end in. */
  public static ChildJvm run(Path dir, List<String> jvmOptions, Duration limit, Class<?> main, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
    command.addAll(List.of(args));
    Path out = Files.createTempFile(dir, "out-", ".txt");
    Path err = Files.createTempFile(dir, "err-", ".txt");
    Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    try {
      if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException(main.getName() + " did not end within " + limit);
      }
      return new ChildJvm(p.exitValue(), Files.readString(out), Files.readString(err));
    } finally {
      p.destroyForcibly();
    }
  }
}
