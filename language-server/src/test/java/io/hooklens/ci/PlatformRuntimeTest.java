package io.hooklens.ci;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.TestPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java runtime the platform VSIX and the container image carry ({@code scripts/server-runtime.sh}), made
 * from the shaded jar as {@code vscode-extension/scripts/package-platform.sh} makes it, serving both faces: the
 * CLI lints a manifest and a chart (through its render worker, a second JVM of the same runtime), and the
 * language server publishes a diagnostic over stdio. The image profile runs this class after the jar is built;
 * elsewhere it runs when the jar is there.
 */
@Tag("slow")
class PlatformRuntimeTest {
  @TempDir
  Path dir;

  @Test
  void theRuntimeOfTheServersModulesLintsAndServesTheEditor() throws Exception {
    Path root = TestPaths.repoRoot();
    Path jar = root.resolve("language-server/target/hooklens.jar");
    Assumptions.assumeTrue(Files.isRegularFile(jar), jar + " is not built: mvn -B -Pimage -pl language-server -am "
        + "verify builds it and runs this test");
    Path jdk = Path.of(System.getProperty("java.home"));
    Assumptions.assumeTrue(Files.isExecutable(jdk.resolve("bin/jlink")), jdk + " has no jlink (a JRE)");
    Path runtime = dir.resolve("runtime");

    Result made = run(List.of(root.resolve("scripts/server-runtime.sh").toString(), jar.toString(),
        runtime.toString(), "0"), jdk);
    assertEquals(0, made.exit(), made.output());
    Path java = runtime.resolve("bin/java");
    String modules = Files.readString(runtime.resolve("release"));
    assertTrue(!modules.contains("jdk.compiler") && modules.contains("jdk.crypto.ec"),
        "only the server's modules, and the providers no class names: " + modules);

    Result lint = run(List.of(java.toString(), "-jar", jar.toString(), "lint", "--format", "json",
        root.resolve("examples/overrun.yaml").toString(), root.resolve("examples/shop").toString()), jdk);
    assertEquals(1, lint.exit(), "findings, nothing broken: " + lint.output());
    assertTrue(lint.output().contains("\"rule\" : \"HL401\"") || lint.output().contains("\"rule\": \"HL401\""),
        "the manifest's preStop overruns its grace period: " + lint.output());
    assertTrue(lint.output().contains("templates/"), "the chart rendered, its findings on templates: "
        + lint.output());

    Assumptions.assumeTrue(onPath("node"), "node is not on the PATH; the language server check needs it");
    Result lsp = run(List.of("node", root.resolve("vscode-extension/scripts/lsp-smoke.mjs").toString(),
        java.toString(), jar.toString()), jdk);
    assertEquals(0, lsp.exit(), "the language server answered with a diagnostic: " + lsp.output());
    System.out.printf("runtime of the server's modules: %d MB%n", size(runtime) >> 20);
  }

  private record Result(int exit, String output) {}

  private Result run(List<String> command, Path jdk) throws IOException, InterruptedException {
    Path out = Files.createTempFile(dir, "out", ".txt");
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
    builder.environment().put("JAVA_HOME", jdk.toString());
    Process p = builder.start();
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      return new Result(-1, "timed out: " + command + "\n" + Files.readString(out));
    }
    return new Result(p.exitValue(), Files.readString(out));
  }

  private static boolean onPath(String tool) {
    return Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
        .anyMatch(d -> !d.isEmpty() && Files.isExecutable(Path.of(d, tool)));
  }

  private static long size(Path folder) throws IOException {
    try (Stream<Path> files = Files.walk(folder)) {
      return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
    }
  }
}
