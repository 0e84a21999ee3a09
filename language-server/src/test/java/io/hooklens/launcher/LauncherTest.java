package io.hooklens.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.TestPaths;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code hooklens} launcher's first run, which builds the jar: a copy of the launcher in a folder of its
 * own, with an {@code mvn} on the PATH that prints what Maven prints (colour codes included) and leaves a
 * jar that prints its arguments.
 */
@Tag("slow")
class LauncherTest {
  @TempDir
  Path dir;

  private static final String MAVEN_OUTPUT = String.join("\n",
      "\u001b[0m[INFO] Scanning for projects...",
      "[INFO] ------------------------------------------------------------------------",
      "[INFO] Building Hooklens JSON Schemas 0.1.0-SNAPSHOT                      [1/2]",
      "[INFO] --- compiler:3.13.0:compile (default-compile) @ hooklens ---",
      "[INFO] Building Hooklens engine, CLI and language server 0.1.0-SNAPSHOT   [2/2]",
      "[INFO] Building jar: /somewhere/hooklens-0.1.0-SNAPSHOT.jar",
      "[INFO] BUILD SUCCESS\u001b[0m\u001b[0m");

  private record Result(int exit, String out, String err) {}

  private Result firstRun(String maven) throws Exception {
    Path repo = dir.resolve("repo");
    Files.createDirectories(repo.resolve("examples"));
    Files.copy(TestPaths.repoRoot().resolve("hooklens"), repo.resolve("hooklens"));
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path probe = dir.resolve("probe.jar");
    writeProbeJar(probe);
    Files.writeString(bin.resolve("mvn"), "#!/bin/sh\n" + maven.replace("PROBE", probe.toString()));
    Files.setPosixFilePermissions(bin.resolve("mvn"), PosixFilePermissions.fromString("rwxr-xr-x"));
    String java = Path.of(System.getProperty("java.home"), "bin").toString();
    ProcessBuilder builder = new ProcessBuilder(repo.resolve("hooklens").toString(), "version")
        .redirectError(dir.resolve("err").toFile()).redirectOutput(dir.resolve("out").toFile());
    builder.environment().put("PATH", bin + ":" + java + ":/usr/bin:/bin");
    builder.environment().remove("JAVA_HOME");
    Process p = builder.start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the launcher ended");
    return new Result(p.exitValue(), Files.readString(dir.resolve("out")), Files.readString(dir.resolve("err")));
  }

  private static void writeProbeJar(Path jar) throws IOException {
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, LauncherProbe.class.getName());
    String entry = LauncherProbe.class.getName().replace('.', '/') + ".class";
    try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, manifest);
        var in = LauncherProbe.class.getClassLoader().getResourceAsStream(entry)) {
      out.putNextEntry(new JarEntry(entry));
      in.transferTo(out);
      out.closeEntry();
    }
  }

  @Test
  void theFirstRunSaysItBuildsShowsEachModuleAndNoColourCodes() throws Exception {
    String maven = "cat <<'OUT'\n" + MAVEN_OUTPUT + "\nOUT\n"
        + "mkdir -p language-server/target && cp PROBE language-server/target/hooklens.jar\n";
    Result r = firstRun(maven);
    assertEquals(0, r.exit(), r.err());
    assertEquals("probe version\n", r.out());
    assertTrue(r.err().startsWith("hooklens: building the jar with Maven, on the first run only"), r.err());
    assertTrue(r.err().contains("hooklens:   building Hooklens JSON Schemas (1/2)\n"
        + "hooklens:   building Hooklens engine, CLI and language server (2/2)\n"), r.err());
    assertFalse(r.err().contains("\u001b"), "no terminal codes: " + r.err());
    assertFalse(r.err().contains("[INFO]"), r.err());
  }

  @Test
  void aFailedBuildShowsMavensErrorsAndSaysHowToSeeMore() throws Exception {
    String maven = "echo '[INFO] Building Hooklens engine, CLI and language server 0.1.0-SNAPSHOT   [1/1]'\n"
        + "printf '\\033[1;31m[ERROR]\\033[m Failed to execute goal on project hooklens: no network\\n'\n"
        + "exit 1\n";
    Result r = firstRun(maven);
    assertEquals(2, r.exit(), r.err());
    assertEquals("", r.out());
    assertTrue(r.err().contains("[ERROR] Failed to execute goal on project hooklens: no network\n"), r.err());
    assertTrue(r.err().contains("hooklens: the build failed; 'mvn -B -DskipTests package' in "), r.err());
    assertFalse(r.err().contains("\u001b"), r.err());
    assertTrue(r.err().getBytes(StandardCharsets.UTF_8).length < 1000, r.err());
  }
}
