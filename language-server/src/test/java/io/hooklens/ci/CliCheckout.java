package io.hooklens.ci;

import io.hooklens.TestPaths;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * A copy of the repository as pre-commit and GitHub Actions check it out, cut to what the {@code hooklens}
 * launcher reads (itself, {@code examples/} for its class-data training run) and the files a test names, with
 * the jar the launcher would build already in {@code language-server/target}: a jar of no classes whose
 * manifest class path is the tests' own, so that the launcher runs this build's CLI without building it.
 */
final class CliCheckout {
  private CliCheckout() {}

  static Path create(Path dir, String... files) throws IOException {
    Path root = TestPaths.repoRoot();
    List<String> copied = new ArrayList<>(List.of("hooklens", "examples"));
    copied.addAll(List.of(files));
    for (String name : copied) {
      TestPaths.copyTree(root.resolve(name), dir.resolve(name));
    }
    writePathJar(Files.createDirectories(dir.resolve("language-server/target")).resolve("hooklens.jar"));
    return dir;
  }

  private static void writePathJar(Path jar) throws IOException {
    List<String> entries = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      // A folder's URI ends with a slash, which the class path needs to read it as a folder.
      entries.add(Path.of(entry).toAbsolutePath().toUri().toString());
    }
    Manifest manifest = new Manifest();
    Attributes main = manifest.getMainAttributes();
    main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
    main.put(Attributes.Name.MAIN_CLASS, "io.hooklens.cli.Main");
    main.put(Attributes.Name.CLASS_PATH, String.join(" ", entries));
    try (OutputStream out = Files.newOutputStream(jar); JarOutputStream unused = new JarOutputStream(out, manifest)) {
      // The manifest is the whole jar.
    }
  }
}
