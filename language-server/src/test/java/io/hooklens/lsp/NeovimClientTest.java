package io.hooklens.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.hooklens.TestPaths;
import io.hooklens.cli.Main;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A third-party client: Neovim from Debian (0.7 or newer), headless, configured with the snippet the
 * docs/editors.md prints, starts {@code hooklens lsp} as its child process and shows our diagnostics. CI
 * installs Neovim (./run-tests does); without it this test fails rather than pass unseen.
 */
@Tag("slow")
class NeovimClientTest {
  private static final long WAIT_MS = 60_000;
  private static final String FIXTURES = "/neovim/";

  @TempDir
  Path dir;

  @Test
  void theReadmeConfigAttachesNeovimWhichShowsTheFindingsOfAManifestAndNoneForACompose() throws Exception {
    Path nvim = nvim();
    for (String name : List.of("collect.lua", "hooks.yaml", "docker-compose.yml")) {
      try (InputStream in = NeovimClientTest.class.getResourceAsStream(FIXTURES + name)) {
        Files.copy(in, dir.resolve(name));
      }
    }
    Files.writeString(dir.resolve("init.lua"), readmeNeovimConfig());
    Path bin = Files.createDirectories(dir.resolve("bin"));
    // The docs' config runs `hooklens lsp` from the PATH; here it is the server under test, started from
    // the test's own classes (the jar is built after the tests). It notes its process id, so that the test
    // can end a server that Neovim left behind.
    Path launcher = bin.resolve("hooklens");
    Path pids = dir.resolve("server.pids");
    Files.writeString(launcher, "#!/bin/sh\necho $$ >> \"$HOOKLENS_TEST_PIDS\"\n"
        + "exec \"$HOOKLENS_TEST_JAVA\" -cp \"$HOOKLENS_TEST_CLASSPATH\" " + Main.class.getName() + " \"$@\"\n");
    Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));

    Path out = dir.resolve("diagnostics.json");
    Path log = dir.resolve("nvim.log");
    ProcessBuilder pb = new ProcessBuilder(nvim.toString(), "--headless", "--clean", "-n",
        "--cmd", "luafile collect.lua", "--cmd", "luafile init.lua", "-o", "hooks.yaml", "docker-compose.yml")
        .directory(dir.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectErrorStream(true)
        .redirectOutput(log.toFile());
    Map<String, String> env = pb.environment();
    env.put("PATH", bin + File.pathSeparator + env.getOrDefault("PATH", ""));
    env.put("HOOKLENS_TEST_JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
    env.put("HOOKLENS_TEST_CLASSPATH", System.getProperty("java.class.path"));
    env.put("HOOKLENS_TEST_PIDS", pids.toString());
    env.put("HOOKLENS_NVIM_OUT", out.toString());
    env.put("HOOKLENS_NVIM_TIMEOUT_MS", Long.toString(WAIT_MS));
    // Neovim's LSP log and state stay in the test's directory.
    for (String xdg : List.of("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME")) {
      env.put(xdg, dir.resolve("xdg").toString());
    }

    Process p = pb.start();
    try {
      if (!p.waitFor(WAIT_MS + 20_000, TimeUnit.MILLISECONDS)) {
        fail("Neovim did not quit in time; its output:\n" + read(log));
      }
      assertEquals(0, p.exitValue(), () -> "Neovim's exit code; its output:\n" + read(log));
      // Neovim ends its servers when it quits (shutdown and exit, then a kill after 500 ms).
      for (ProcessHandle server : servers(pids)) {
        assertTrue(server.onExit().completeOnTimeout(null, 10, TimeUnit.SECONDS).get() != null,
            "the server outlived Neovim");
      }
    } finally {
      p.destroyForcibly();
      servers(pids).forEach(ProcessHandle::destroyForcibly);
    }

    JsonObject files = JsonParser.parseString(Files.readString(out)).getAsJsonObject();
    JsonObject hooks = files.getAsJsonObject("hooks.yaml");
    JsonObject compose = files.getAsJsonObject("docker-compose.yml");
    assertEquals("yaml", hooks.get("filetype").getAsString());
    assertEquals("yaml", compose.get("filetype").getAsString());

    // HL402 on line 47 is turned off by the config's init_options, so settings reach the server too.
    List<String> found = new ArrayList<>();
    for (JsonElement e : hooks.getAsJsonArray("diagnostics")) {
      JsonObject d = e.getAsJsonObject();
      found.add(d.get("code").getAsString() + "@" + d.get("line").getAsInt() + ":" + d.get("column").getAsInt());
      assertEquals("hooklens", d.get("source").getAsString());
      assertTrue(d.get("docs").getAsString().endsWith("/docs/rules/" + d.get("code").getAsString() + ".md"),
          d.toString());
    }
    assertEquals(List.of("HL401@19:13", "HL201@28:19"), found);
    JsonObject hl401 = hooks.getAsJsonArray("diagnostics").get(0).getAsJsonObject();
    assertEquals("warning", severity(hl401));
    assertTrue(hl401.get("message").getAsString().startsWith("preStop of container \"web\" needs at least 20s"),
        hl401.toString());
    JsonArray related = hl401.getAsJsonArray("related");
    assertEquals(1, related.size(), related::toString);
    assertEquals(14, related.get(0).getAsJsonObject().get("line").getAsInt(), "terminationGracePeriodSeconds");
    assertEquals("the grace period", related.get(0).getAsJsonObject().get("message").getAsString());
    assertEquals("error", severity(hooks.getAsJsonArray("diagnostics").get(1).getAsJsonObject()));

    // The compose file is silent because the server judged it, not because nothing was attached.
    assertEquals(0, compose.getAsJsonArray("diagnostics").size(), compose::toString);
    long pid = onlyHooklensClient(hooks);
    assertEquals(pid, onlyHooklensClient(compose), "one server for both files");
    assertEquals(List.of(pid), Files.readAllLines(pids).stream().map(Long::valueOf).toList(),
        "Neovim started one server");
  }

  /** The servers the launcher started that are still running. */
  private static List<ProcessHandle> servers(Path pids) throws IOException {
    if (!Files.exists(pids)) {
      return List.of();
    }
    return Files.readAllLines(pids).stream()
        .map(s -> ProcessHandle.of(Long.parseLong(s.trim())))
        .flatMap(Optional::stream)
        .toList();
  }

  private static String severity(JsonObject d) {
    return switch (d.get("severity").getAsString()) {
      case "ERROR" -> "error";
      case "WARN" -> "warning";
      case "INFO" -> "info";
      default -> d.get("severity").getAsString();
    };
  }

  private static long onlyHooklensClient(JsonObject file) {
    JsonArray clients = file.getAsJsonArray("clients");
    assertEquals(1, clients.size(), clients::toString);
    JsonObject c = clients.get(0).getAsJsonObject();
    assertEquals("hooklens", c.get("name").getAsString());
    return c.get("pid").getAsLong();
  }

  /** The Lua block under the "Neovim 0.7" line of docs/editors.md, exactly as printed. */
  static String readmeNeovimConfig() throws IOException {
    String readme = Files.readString(TestPaths.repoRoot().resolve("docs/editors.md"));
    Matcher m = Pattern.compile("Neovim 0\\.7[^\\n]*\\n+```lua\\n(.*?)```", Pattern.DOTALL).matcher(readme);
    assertTrue(m.find(), "docs/editors.md has a Lua block for Neovim 0.7");
    return m.group(1);
  }

  /** Neovim on the PATH, or a failure that says how to get it. */
  private static Path nvim() {
    Optional<Path> found = Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
        .filter(s -> !s.isEmpty())
        .map(s -> Path.of(s, "nvim"))
        .filter(Files::isExecutable)
        .findFirst();
    if (found.isEmpty()) {
      fail("This test needs Neovim 0.7 or newer on the PATH, and none was found. Install it with"
          + " `apt-get install neovim` (./run-tests does so when run as root), or leave this test out with"
          + " -Dtest='!NeovimClientTest'.");
    }
    return found.get();
  }

  private static String read(Path log) {
    try {
      return Files.readString(log, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(no output: " + e + ")";
    }
  }
}
