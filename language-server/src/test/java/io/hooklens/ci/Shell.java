package io.hooklens.ci;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A command run to its end in a folder, with variables added to the tests' environment, standard error and
 * output captured apart.
 *
 * @param exit the exit code
 */
record Shell(int exit, String out, String err) {
  static Shell run(Path dir, Map<String, String> env, List<String> command) throws IOException, InterruptedException {
    Path out = Files.createTempFile("hooklens-out-", ".txt");
    Path err = Files.createTempFile("hooklens-err-", ".txt");
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
        .redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(
            Path.of("/dev/null").toFile()));
    builder.environment().putAll(env);
    Process p = builder.start();
    try {
      if (!p.waitFor(10, TimeUnit.MINUTES)) {
        throw new IllegalStateException(String.join(" ", command) + " did not end within 10 minutes");
      }
      return new Shell(p.exitValue(), Files.readString(out), Files.readString(err));
    } finally {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      Files.delete(out);
      Files.delete(err);
    }
  }

  String both() {
    return "--- stdout:\n" + out + "--- stderr:\n" + err;
  }
}
