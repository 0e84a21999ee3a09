package io.hooklens.chart;

import io.hooklens.core.engine.Version;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Renders a chart copy with real Helm. Helm runs in a render worker, a child process shared by every render of
 * this process and started again after it is stopped: Helm's memory is native, out of reach of the JVM's
 * limits, and a chart can make it loop or grow without end, so each render is bounded by the
 * {@link RenderLimits} and stopped past them. A worker without a render for {@link RenderLimits#idleSeconds}
 * is stopped too, and the next render starts another. Where helm-java's native library is not bundled, or when one
 * is named, the user's own helm binary renders instead ({@link HelmBinary}), within the same limits of time and
 * output.
 */
final class ChartRenderer {
  /** What Helm made of one values set. */
  sealed interface Rendering permits Rendered, Failed {}

  /**
   * The manifests, each document under a {@code # Source:} header, hook annotations as written; and the
   * {@code helm.sh/hook} values of resources Helm left out for an event it does not know, which it only logs.
   */
  record Rendered(String manifests, List<String> skippedHooks) implements Rendering {}

  /** Helm's error message, with the copy's paths still in it; or why rendering was stopped. */
  record Failed(String message) implements Rendering {}

  private static final Object LOCK = new Object();
  private static WorkerProcess worker;
  /** When the worker last started or rendered, by {@link System#nanoTime()}. */
  private static long lastUse;
  private static ScheduledExecutorService idleTimer;
  private static ScheduledFuture<?> idleStop;

  private ChartRenderer() {}

  /** Why Helm cannot run in this process, or empty when it can. */
  static Optional<String> unavailable() {
    Optional<String> named = HelmBinary.named();
    if (named.isPresent()) {
      return HelmBinary.find(named.get()).isPresent() ? Optional.empty()
          : Optional.of("the Helm binary " + named.get() + " (" + HelmBinary.PROPERTY + " or " + HelmBinary.ENVIRONMENT
              + ") is not an executable file" + (named.get().contains("/") ? "" : " on the PATH"));
    }
    if (library().isEmpty() || HelmBinary.find("helm").isPresent()) {
      return Optional.empty();
    }
    return Optional.of(library().get() + ", and no helm binary is on the PATH (--helm or " + HelmBinary.ENVIRONMENT
        + " names one)");
  }

  /**
   * Why helm-java's native library cannot load in this process, or empty when it can: helm-java loads the first
   * library on the class path, whatever the platform, so the one of this platform must be there, under the name
   * helm-java gives it.
   */
  private static Optional<String> library() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    String goOs = os.startsWith("mac") || os.startsWith("darwin") ? "darwin" : os.startsWith("windows") ? "windows"
        : os.startsWith("linux") ? "linux" : os;
    String goArch = arch.equals("x86_64") ? "amd64" : arch.equals("aarch64") ? "arm64" : arch;
    String extension = goOs.equals("darwin") ? ".dylib" : goOs.equals("windows") ? ".dll" : ".so";
    if (ChartRenderer.class.getResource("/helm-" + goOs + "-" + goArch + extension) != null) {
      return Optional.empty();
    }
    return Optional.of("Helm's native library is bundled for linux-amd64 only, not for " + goOs + "-" + goArch);
  }

  /**
   * The helm binary that renders charts: the one named, wherever Helm's library loads too; else, where it does
   * not, the one on the PATH. Empty when the render worker renders them.
   */
  private static Optional<Path> binary() {
    Optional<String> named = HelmBinary.named();
    if (named.isPresent()) {
      return HelmBinary.find(named.get());
    }
    return library().isEmpty() ? Optional.empty() : HelmBinary.find("helm");
  }

  /**
   * Starts the render worker unless one runs: it starts in the background, while the caller goes on. Nothing
   * where a helm binary renders.
   */
  static void prepare() throws IOException {
    if (binary().isPresent()) {
      return;
    }
    synchronized (LOCK) {
      worker();
      used();
    }
  }

  /**
   * Renders the copy with its values.yaml, the given values files on top in order (as helm's
   * {@code -f}) and the values set as with {@code --set}, {@code --set-string} and {@code --set-file}, for
   * the given Kubernetes version ({@code .Capabilities.KubeVersion}, kubeVersion checks) and release.
   *
   * @throws IOException when the render worker cannot be started
   */
  static Rendering render(ChartCopy copy, List<Path> valuesFiles, SetValues.ForHelm setValues,
      Version kubernetes, Release release) throws IOException {
    RenderLimits limits = RenderLimits.current();
    return call(new RenderProtocol.Request(copy.root().toString(),
        valuesFiles.stream().map(Path::toString).toList(), setValues.set(), setValues.files(),
        setValues.empty() == null ? "" : setValues.empty().toString(),
        "v" + kubernetes.major() + "." + kubernetes.minor() + ".0", limits.outputBytes(), release.name(),
        release.namespace(), false), limits);
  }

  /**
   * Does what {@code helm dependency build} does in a chart folder: its {@code charts/} gets an archive of each
   * dependency, fetched from its repository (a {@code file://} folder, or the network).
   *
   * @return Helm's error message when it could not, else empty
   * @throws IOException when the render worker cannot be started
   */
  static Optional<String> buildDependencies(Path chartFolder) throws IOException {
    RenderLimits limits = RenderLimits.current();
    Rendering r = call(new RenderProtocol.Request(chartFolder.toString(), List.of(), "", "", "", "", 0,
        Release.DEFAULT.name(), Release.DEFAULT.namespace(), true), limits);
    return r instanceof Failed f ? Optional.of(f.message()) : Optional.empty();
  }

  private static Rendering call(RenderProtocol.Request request, RenderLimits limits) throws IOException {
    Optional<Path> binary = binary();
    if (binary.isPresent()) {
      return HelmBinary.render(binary.get(), request, limits);
    }
    synchronized (LOCK) {
      try {
        return worker().render(request, limits);
      } finally {
        used();
      }
    }
  }

  /** The worker that runs, started when there is none or the last one was stopped. */
  private static WorkerProcess worker() throws IOException {
    if (worker == null || !worker.alive()) {
      if (worker != null) {
        worker.close();
      }
      worker = WorkerProcess.start();
    }
    return worker;
  }

  /** Restarts the idle clock; called with {@link #LOCK} held. */
  private static void used() {
    lastUse = System.nanoTime();
    if (idleTimer == null) {
      idleTimer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "hooklens-helm-idle");
        t.setDaemon(true);
        return t;
      });
    }
    if (idleStop != null) {
      idleStop.cancel(false);
    }
    long seconds = RenderLimits.idleSeconds();
    idleStop = idleTimer.schedule(() -> stopIfIdle(seconds), seconds, TimeUnit.SECONDS);
  }

  /** Stops the worker unless a render came since the idle clock was set: a stop about to run may wait for one. */
  private static void stopIfIdle(long seconds) {
    synchronized (LOCK) {
      if (worker != null && System.nanoTime() - lastUse >= TimeUnit.SECONDS.toNanos(seconds)) {
        worker.close();
        worker = null;
      }
    }
  }
}
