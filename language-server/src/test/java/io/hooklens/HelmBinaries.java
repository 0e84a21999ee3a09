package io.hooklens;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A real {@code helm} binary for the tests of rendering without Helm's library: the one scripts/kube-assets.sh
 * built beside the control plane, else one built once from Helm's Go module into a cache outside the repository
 * ({@code HOOKLENS_HELM_CACHE}, default {@code ~/.cache/hooklens/helm}); the tests skip, saying why, without Go.
 */
public final class HelmBinaries {
  /** The release kube-assets.sh builds too. */
  public static final String VERSION = "3.22.0";
  private static final long BUILD_MINUTES = 30;
  private static Path found;

  private HelmBinaries() {}

  /** The helm binary, built first when need be; aborts the test with the reason when there is none. */
  public static synchronized Path helmOrSkip() {
    if (found == null) {
      try {
        found = assets();
        if (found == null) {
          found = built();
        }
      } catch (IOException e) {
        Assumptions.abort("no helm binary: " + e.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        Assumptions.abort("interrupted while building helm");
      }
    }
    return found;
  }

  /** The helm of the control plane's assets, when they are complete. */
  private static Path assets() throws IOException, InterruptedException {
    Path script = TestPaths.repoRoot().resolve("scripts/kube-assets.sh");
    Process p = new ProcessBuilder("bash", script.toString(), "--check").redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    if (p.waitFor() != 0 || out.isEmpty()) {
      return null;
    }
    Path helm = Path.of(out, "helm");
    return Files.isExecutable(helm) ? helm : null;
  }

  /** Helm built from its Go module, as kube-assets.sh builds it, into the cache; reused once there. */
  private static Path built() throws IOException, InterruptedException {
    String cacheDir = System.getenv("HOOKLENS_HELM_CACHE");
    Path cache = cacheDir != null ? Path.of(cacheDir)
        : Path.of(System.getProperty("user.home"), ".cache", "hooklens", "helm");
    Path helm = cache.resolve("v" + VERSION).resolve("helm");
    if (Files.isExecutable(helm)) {
      return helm;
    }
    if (!onPath("go")) {
      Assumptions.abort("no helm binary: scripts/kube-assets.sh has built none and Go, which builds one, is not on "
          + "the PATH");
    }
    // Helm's go.mod holds replace directives, so `go install helm.sh/helm/v3/cmd/helm@v` refuses it; a module of
    // ours that requires Helm builds the same main package.
    Path src = Files.createDirectories(cache.resolve("src-v" + VERSION));
    Files.writeString(src.resolve("go.mod"), "module hooklens.local/helm\n\ngo 1.24\n\nrequire helm.sh/helm/v3 v"
        + VERSION + "\n");
    Files.writeString(src.resolve("tools.go"),
        "//go:build tools\n\npackage tools\n\nimport _ \"helm.sh/helm/v3/cmd/helm\"\n");
    Path log = src.resolve("build.log");
    Path partial = helm.resolveSibling("helm.tmp");
    Files.createDirectories(helm.getParent());
    go(src, log, List.of("go", "mod", "tidy"));
    go(src, log, List.of("go", "build", "-trimpath", "-ldflags",
        "-s -w -X helm.sh/helm/v3/internal/version.version=v" + VERSION, "-o", partial.toString(),
        "helm.sh/helm/v3/cmd/helm"));
    Files.move(partial, helm, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    return helm;
  }

  private static void go(Path dir, Path log, List<String> command) throws IOException, InterruptedException {
    ProcessBuilder b = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    b.environment().put("GOFLAGS", "-mod=mod");
    b.environment().put("CGO_ENABLED", "0");
    Process p = b.start();
    if (!p.waitFor(BUILD_MINUTES, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new IOException(String.join(" ", command) + " took longer than " + BUILD_MINUTES + " min; see " + log);
    }
    if (p.exitValue() != 0) {
      throw new IOException(String.join(" ", command) + " failed; see " + log);
    }
  }

  private static boolean onPath(String name) {
    String path = System.getenv("PATH");
    if (path == null) {
      return false;
    }
    for (String dir : path.split(java.io.File.pathSeparator)) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
        return true;
      }
    }
    return false;
  }
}
