package io.hooklens.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.core.engine.Linter;
import io.hooklens.rules.BuiltInRules;
import io.hooklens.run.node.Image;
import io.hooklens.run.node.ImageArchive;
import io.hooklens.run.report.HookResult;
import io.hooklens.run.report.RunReport;
import io.hooklens.run.report.Step;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The container image that {@code mvn -Pimage verify} builds, loaded as any image archive is and run on the
 * embedded node as {@code docker run -v "$PWD:/src" hooklens lint /src} runs it: the folder mounted at /src, the
 * image's own entrypoint, user and working directory. The image profile runs this class after the image is built;
 * elsewhere it runs when the archive is there (or named by -Dhooklens.image).
 */
@Tag("slow")
class ContainerImageTest {
  private static final String NAME = "hooklens:latest";

  @TempDir
  Path dir;

  private static Path archive() {
    String given = System.getProperty("hooklens.image");
    Path archive = given != null ? Path.of(given)
        : Path.of(System.getProperty("hooklens.repoRoot", ".."), "language-server/target/hooklens-image.tar");
    Assumptions.assumeTrue(Files.isRegularFile(archive), archive + " is not built: mvn -B -Pimage -DskipTests -pl "
        + "language-server -am verify builds it (without -DskipTests it also runs this test)");
    return archive;
  }

  @Test
  void theImageRunsAsANonRootUserWithTheCliAsEntrypointInSrc() throws Exception {
    Image image = ImageArchive.unpack(archive(), NAME, dir.resolve("root"));
    assertEquals("65532:65532", image.user(), "numeric, so that a cluster can check runAsNonRoot");
    assertEquals("/src", image.workingDir());
    List<String> entrypoint = image.entrypoint();
    assertEquals("/opt/java/bin/java", entrypoint.get(0), entrypoint.toString());
    assertEquals("io.hooklens.cli.Main", entrypoint.get(entrypoint.size() - 1), entrypoint.toString());
    assertTrue(Files.readString(image.root().resolve("etc/passwd")).contains("hooklens:x:65532:65532:"));
    System.out.printf("image archive %d MB, unpacked %d MB%n", Files.size(archive()) >> 20,
        size(image.root()) >> 20);
  }

  @Test
  void theImageTellsItsVersionAndLintsTheFolderMountedAtSrcChartsRendered() throws Exception {
    Path archive = archive();
    Assumptions.assumeTrue(Runner.sandboxAvailable(), "bubblewrap is missing or cannot create namespaces here; "
        + "an image runs only in the sandbox");
    Path src = Files.createDirectories(dir.resolve("src"));
    Path examples = Path.of(System.getProperty("hooklens.repoRoot", "..")).resolve("examples");
    copyTree(examples.resolve("shop"), src.resolve("shop"));
    Files.copy(examples.resolve("batch.yaml"), src.resolve("batch.yaml"));
    RunFixture.openToSandbox(dir, false);
    // The container runs the image's entrypoint (the language server, which waits on its open input); its hooks
    // run the CLI in it as exec hooks do, the runtime's java on the classpath file Jib writes.
    String cli = "[\"/opt/java/bin/java\", \"-XX:TieredStopAtLevel=1\", \"-cp\", \"@/app/jib-classpath-file\", "
        + "\"io.hooklens.cli.Main\"";
    String yaml = """
        apiVersion: v1
        kind: Pod
        metadata:
          name: hooklens
        spec:
          terminationGracePeriodSeconds: 60
          volumes:
            - {name: src, hostPath: {path: %s}}
          containers:
            - name: cli
              image: %s
              args: ["lsp"]
              volumeMounts:
                - {name: src, mountPath: /src}
              lifecycle:
                postStart:
                  exec:
                    command: %s, "version"]
                preStop:
                  exec:
                    command: %s, "lint", "."]
        """.formatted(src, NAME, cli, cli);
    RunReport report;
    try (Images images = Images.of(Map.of(), Map.of(NAME, archive))) {
      RunPlan plan = RunPlan.of(new Linter(BuiltInRules.registry()).parse("hooklens.yaml", yaml), Selection.all(),
          images);
      assertEquals(List.of(), plan.problems(), "the image's entrypoint is the container's command");
      assertEquals("/opt/java/bin/java", plan.pods().get(0).containers().get(0).command().get(0));
      try (Runner runner = Runner.embedded(images, 60, (s, pod, what) -> { })) {
        report = runner.run(plan, List.of());
      }
    }
    Step step = report.steps().get(0);
    HookResult version = hook(step, "postStart");
    HookResult lint = hook(step, "preStop");
    assertEquals("succeeded", version.status(), version + "; " + step.containers());
    assertTrue(version.output().startsWith("hooklens "), version.output());
    assertTrue(lint.output().contains("batch.yaml:31:63:") && lint.output().contains(
        "[lifecycle-exec-shell-syntax-without-shell]"), "the folder mounted at /src is linted: " + lint);
    assertTrue(lint.output().contains("[values: ci/slow-drain-values.yaml]"),
        "the chart is rendered with each values file, helm's native library loaded in the image: " + lint);
    assertEquals("failed", lint.status(), "findings of error severity end the CLI with 1: " + lint);
    System.out.printf("in the image: hooklens version %d ms, lint of a chart and a manifest %d ms%n",
        version.durationMs(), lint.durationMs());
  }

  private static HookResult hook(Step step, String which) {
    return step.hooks().stream().filter(h -> h.hook().equals(which)).findFirst()
        .orElseThrow(() -> new AssertionError("no " + which + " hook in " + step));
  }

  private static long size(Path root) throws IOException {
    try (Stream<Path> tree = Files.walk(root)) {
      return tree.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> tree = Files.walk(from)) {
      for (Path p : tree.toList()) {
        Files.copy(p, to.resolve(from.relativize(p).toString()));
      }
    }
  }
}
