package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.ChildJvm;
import io.hooklens.HelmBinaries;
import io.hooklens.TestPaths;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --helm} renders with the helm binary it names: the same report as Helm's library gives, or a usage error. */
@Tag("slow")
class HelmBinaryCommandTest {
  @TempDir
  Path dir;

  private ChildJvm cli(String... args) throws Exception {
    return ChildJvm.run(dir, Main.class, args);
  }

  @Test
  void lintAndHooksGiveTheSameReportThroughTheBinaryNamed() throws Exception {
    String helm = HelmBinaries.helmOrSkip().toString();
    String chart = TestPaths.repoRoot().resolve("examples/shop").toString();
    ChildJvm library = cli("lint", "--format", "json", chart);
    ChildJvm binary = cli("lint", "--format", "json", "--helm", helm, chart);
    assertEquals(1, library.exit(), library.err());
    assertEquals(library.exit(), binary.exit(), binary.err());
    assertEquals(library.out(), binary.out());
    ChildJvm plannedByLibrary = cli("hooks", chart);
    ChildJvm plannedByBinary = cli("hooks", "--helm", helm, chart);
    assertEquals(0, plannedByBinary.exit(), plannedByBinary.err());
    assertEquals(plannedByLibrary.out(), plannedByBinary.out());
  }

  /** The CLI in a JVM that takes itself for linux-arm64, whose library is not bundled, with this PATH. */
  private ChildJvm onArm64(String path, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Dos.arch=aarch64", "-cp", System.getProperty("java.class.path"), Main.class.getName()));
    command.addAll(List.of(args));
    Path out = Files.createTempFile(dir, "out-", ".txt");
    Path err = Files.createTempFile(dir, "err-", ".txt");
    ProcessBuilder b = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
    b.environment().put("PATH", path);
    b.environment().remove("HOOKLENS_HELM");
    Process p = b.start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException("lint did not end within 120 s");
    }
    return new ChildJvm(p.exitValue(), Files.readString(out), Files.readString(err));
  }

  @Test
  void whereTheLibraryIsNotBundledTheHelmOnThePathRendersElseTheTemplatesAreReadMasked() throws Exception {
    Path helm = HelmBinaries.helmOrSkip();
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Files.createSymbolicLink(bin.resolve("helm"), helm);
    // Of the system, only the tools that stop Helm's process group, so that no helm installed here is found.
    Path tools = Files.createDirectories(dir.resolve("tools"));
    for (String tool : List.of("setsid", "kill")) {
      for (String d : System.getenv("PATH").split(File.pathSeparator)) {
        Path p = Path.of(d, tool);
        if (!d.isEmpty() && Files.isExecutable(p) && !Files.exists(tools.resolve(tool))) {
          Files.createSymbolicLink(tools.resolve(tool), p);
        }
      }
    }
    String system = tools.toString();
    String chart = TestPaths.repoRoot().resolve("examples/shop").toString();
    ChildJvm library = cli("lint", "--format", "json", chart);
    ChildJvm binary = onArm64(bin + File.pathSeparator + system, "lint", "--format", "json", chart);
    assertEquals(library.exit(), binary.exit(), binary.err());
    assertEquals(library.out(), binary.out());
    ChildJvm masked = onArm64(system, "lint", "--format", "json", chart);
    assertTrue(masked.err().contains("Helm's native library is bundled for linux-amd64 only, not for linux-arm64, "
        + "and no helm binary is on the PATH"), masked.err());
    assertNotEquals(library.out(), masked.out(), "the chart is not rendered");
  }

  @Test
  void aHelmThatIsNoExecutableIsAUsageError() throws Exception {
    ChildJvm r = cli("lint", "--helm", dir.resolve("helm").toString(), TestPaths.repoRoot().resolve("examples/shop")
        .toString());
    assertEquals(ExitCodes.USAGE, r.exit(), r.err());
    assertTrue(r.err().contains("--helm " + dir.resolve("helm") + ": not an executable file"), r.err());
  }
}
