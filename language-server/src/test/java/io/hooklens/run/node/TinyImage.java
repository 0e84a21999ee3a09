package io.hooklens.run.node;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A root filesystem with a shell, cat and sleep and the libraries they load, as an unpacked image has. */
public final class TinyImage {
  private TinyImage() {
  }

  public static Path build(Path root) throws IOException, InterruptedException {
    for (String d : List.of("bin", "etc", "proc", "dev", "tmp")) {
      Files.createDirectories(root.resolve(d));
    }
    Pattern library = Pattern.compile("(/\\S+)");
    for (String program : List.of("sh", "cat", "sleep")) {
      Path binary = Path.of("/usr/bin", program).toRealPath();
      Files.copy(binary, root.resolve("bin/" + program));
      Process ldd = new ProcessBuilder("ldd", binary.toString()).redirectErrorStream(true).start();
      String libraries = new String(ldd.getInputStream().readAllBytes());
      assertTrue(ldd.waitFor(10, TimeUnit.SECONDS));
      Matcher m = library.matcher(libraries);
      while (m.find()) {
        Path lib = Path.of(m.group(1));
        Path copy = root.resolve(lib.toString().substring(1));
        if (Files.isRegularFile(lib) && !Files.exists(copy)) {
          Files.createDirectories(copy.getParent());
          Files.copy(lib.toRealPath(), copy);
        }
      }
    }
    return root;
  }
}
