package io.hooklens.chart;

import io.hooklens.core.engine.Version;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Renders a chart copy with real Helm. Helm runs in render workers, child processes shared by every render of
 * this process and started again after they are stopped: Helm's memory is native, out of reach of the JVM's
 * limits, and a chart can make it loop or grow without end, so each render is bounded by the
 * {@link RenderLimits} and stopped past them. A worker serves one render at a time, and renders run side by
 * side in as many workers as {@link #allowWorkers} allows (one unless raised); a worker without a render for
 * {@link RenderLimits#idleSeconds} is stopped, and a later render starts another. Where helm-java's native library
 * is not bundled, or when one is named, the user's own helm binary renders instead ({@link HelmBinary}), within the
 * same limits of time and output.
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
  /** Workers started that wait for a render, the last used first. */
  private static final Deque<WorkerProcess> IDLE = new ArrayDeque<>();
  /** Workers rendering now. */
  private static int busy;
  private static int allowed = 1;
  /** When a worker last started or rendered, by {@link System#nanoTime()}. */
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
      for (WorkerProcess w : List.copyOf(IDLE)) {
        if (!w.alive()) {
          w.close();
          IDLE.remove(w);
        }
      }
      if (IDLE.isEmpty() && busy == 0) {
        IDLE.push(WorkerProcess.start());
      }
      used();
    }
  }

  /**
   * Lets renders of this process run in up to {@code workers} workers at once, for callers that render side by
   * side; never lowers what was allowed before.
   */
  static void allowWorkers(int workers) {
    synchronized (LOCK) {
      allowed = Math.max(allowed, workers);
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
    WorkerProcess worker = take();
    try {
      return worker.render(request, limits);
    } finally {
      give(worker);
    }
  }

  /**
   * A worker for one render: an idle one that runs, else a new one while fewer than allowed run, else the first
   * to come back.
   */
  private static WorkerProcess take() throws IOException {
    synchronized (LOCK) {
      while (true) {
        WorkerProcess idle = IDLE.poll();
        if (idle != null && idle.alive()) {
          busy++;
          return idle;
        }
        if (idle != null) {
          idle.close();
        } else if (busy < allowed) {
          WorkerProcess started = WorkerProcess.start();
          busy++;
          return started;
        } else {
          try {
            LOCK.wait();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for Helm's render worker");
          }
        }
      }
    }
  }

  /** Takes a worker back after its render; one the render stopped is closed, and a waiting render goes on. */
  private static void give(WorkerProcess worker) {
    synchronized (LOCK) {
      busy--;
      if (worker.alive()) {
        IDLE.push(worker);
      } else {
        worker.close();
      }
      used();
      LOCK.notifyAll();
    }
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

  /**
   * Stops the idle workers unless a render started or ended since the idle clock was set; a busy worker restarts
   * the clock when it is given back.
   */
  private static void stopIfIdle(long seconds) {
    synchronized (LOCK) {
      if (System.nanoTime() - lastUse >= TimeUnit.SECONDS.toNanos(seconds)) {
        IDLE.forEach(WorkerProcess::close);
        IDLE.clear();
      }
    }
  }
}
