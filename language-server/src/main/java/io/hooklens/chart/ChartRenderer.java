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
 * {@link RenderLimits#idleSeconds} is stopped, and a later render starts another.
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

  static final String RELEASE = "release";
  static final String NAMESPACE = "default";

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
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    if (os.startsWith("linux") && (arch.equals("amd64") || arch.equals("x86_64"))) {
      return Optional.empty();
    }
    return Optional.of("Helm's native library is bundled for linux-amd64 only, not for " + os + "-" + arch);
  }

  /** Starts a render worker unless one runs: it starts in the background, while the caller goes on. */
  static void prepare() throws IOException {
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
   * the given Kubernetes version ({@code .Capabilities.KubeVersion}, kubeVersion checks).
   *
   * @throws IOException when the render worker cannot be started
   */
  static Rendering render(ChartCopy copy, List<Path> valuesFiles, SetValues.ForHelm setValues,
      Version kubernetes) throws IOException {
    return render(copy, valuesFiles, setValues, kubernetes, RELEASE, NAMESPACE);
  }

  /** A render as {@link #render(ChartCopy, List, SetValues.ForHelm, Version)}, for another release and namespace. */
  static Rendering render(ChartCopy copy, List<Path> valuesFiles, SetValues.ForHelm setValues,
      Version kubernetes, String release, String namespace) throws IOException {
    RenderLimits limits = RenderLimits.current();
    RenderProtocol.Request request = new RenderProtocol.Request(copy.root().toString(),
        valuesFiles.stream().map(Path::toString).toList(), setValues.set(), setValues.files(),
        setValues.empty() == null ? "" : setValues.empty().toString(),
        "v" + kubernetes.major() + "." + kubernetes.minor() + ".0", limits.outputBytes(), release, namespace);
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
