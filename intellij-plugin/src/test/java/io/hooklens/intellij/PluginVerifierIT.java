package io.hooklens.intellij;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JetBrains' Plugin Verifier on the zip, against a stand-in IDE: build 251's core classes (from the
 * kotlin-compiler jar), a core descriptor declaring the platform module, and LSP4IJ as a plugin made of the
 * project's LSP4IJ signatures. It proves the plugin's references to the platform resolve, and that it
 * depends on nothing the stand-in lacks; it cannot prove its references to LSP4IJ, whose real jar is not
 * available here.
 */
@Tag("slow")
class PluginVerifierIT {
  private static final String BUILD = "IC-251.27812.49";

  @TempDir Path tmp;

  @Test
  void theVerifierFindsThePluginCompatibleWithTheStandInIde() throws Exception {
    Path ide = standInIde(true);
    assertEquals("Compatible", verdict(ide, tmp.resolve("reports")));
  }

  /** The verdict file is what decides (the verifier exits 0 either way): without LSP4IJ it must not pass. */
  @Test
  void withoutLsp4ijTheVerdictIsNotCompatible() throws Exception {
    Path ide = standInIde(false);
    assertNotEquals("Compatible", verdict(ide, tmp.resolve("reports-without-lsp4ij")));
  }

  private String verdict(Path ide, Path reports) throws IOException, InterruptedException {
    Path log = tmp.resolve(reports.getFileName() + ".log");
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p = new ProcessBuilder(java.toString(), "-jar", System.getProperty("hooklens.verifierJar"),
        "check-plugin", PackagedPlugin.zip().toString(), ide.toString(), "-offline",
        "-verification-reports-dir", reports.toString())
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!p.waitFor(10, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("the verifier did not finish; its log: " + Files.readString(log));
    }
    List<Path> verdicts;
    try (Stream<Path> files = Files.walk(reports)) {
      verdicts = files.filter(f -> f.getFileName().toString().equals("verification-verdict.txt")).toList();
    } catch (IOException e) {
      throw new AssertionError("no reports; the verifier's log: " + Files.readString(log), e);
    }
    assertEquals(1, verdicts.size(), () -> "verdicts " + verdicts + "; the verifier's log: " + read(log));
    String verdict = Files.readString(verdicts.get(0)).strip();
    System.out.println("Plugin Verifier verdict (" + reports.getFileName() + "): " + verdict);
    return verdict;
  }

  private Path standInIde(boolean withLsp4ij) throws IOException {
    Path ide = Files.createDirectories(tmp.resolve(withLsp4ij ? "ide" : "ide-without-lsp4ij"));
    Files.writeString(ide.resolve("build.txt"), BUILD);
    Path lib = Files.createDirectories(ide.resolve("lib"));
    Files.createSymbolicLink(lib.resolve("kotlin-compiler.jar"), Path.of(System.getProperty("hooklens.platformJar")));
    jar(lib.resolve("platform.jar"), null, "<idea-plugin><id>com.intellij</id><name>IDEA CORE</name>"
        + "<module value=\"com.intellij.modules.platform\"/></idea-plugin>");
    if (withLsp4ij) {
      // LSP4IJ's id and extension points (names as in its plugin.xml), over the project's LSP4IJ signatures.
      jar(Files.createDirectories(ide.resolve("plugins/lsp4ij/lib")).resolve("lsp4ij.jar"),
          Path.of(System.getProperty("hooklens.stubsJar")),
          "<idea-plugin><id>com.redhat.devtools.lsp4ij</id><name>LSP4IJ</name><version>0.20.2</version>"
              + "<vendor>Red Hat</vendor><idea-version since-build=\"242\"/><extensionPoints>"
              + "<extensionPoint name=\"server\" interface=\"com.redhat.devtools.lsp4ij.LanguageServerFactory\"/>"
              + "<extensionPoint name=\"fileNamePatternMapping\" beanClass=\"java.lang.Object\"/>"
              + "</extensionPoints></idea-plugin>");
    }
    return ide;
  }

  /** A jar with a META-INF/plugin.xml, and the classes of another jar when one is given. */
  private static void jar(Path target, Path classes, String descriptor) throws IOException {
    try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(target))) {
      out.putNextEntry(new ZipEntry("META-INF/plugin.xml"));
      out.write(descriptor.getBytes(StandardCharsets.UTF_8));
      out.closeEntry();
      if (classes != null) {
        copyClasses(classes, out);
      }
    }
  }

  private static void copyClasses(Path jar, OutputStream target) throws IOException {
    ZipOutputStream out = (ZipOutputStream) target;
    try (ZipInputStream in = new ZipInputStream(Files.newInputStream(jar))) {
      for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
        if (e.getName().endsWith(".class")) {
          out.putNextEntry(new ZipEntry(e.getName()));
          in.transferTo(out);
          out.closeEntry();
        }
      }
    }
  }

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      return e.toString();
    }
  }
}
