package io.hooklens.chart;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A render worker as its parent sees it: a child JVM, started from this JVM's java binary and class path, that
 * runs Helm ({@link RenderWorker}). A watchdog thread kills it when a render runs longer than its time limit or
 * the worker's resident memory grows past its limit; its standard input ends with this process, which ends it,
 * and a shutdown hook kills it too. Renders go one at a time.
 */
final class WorkerProcess {
  /** Often enough that memory growing at gigabytes per second is stopped within a few hundred megabytes. */
  private static final long POLL_MS = 20;
  /** How long a worker that closed its output may take to end before it is killed. */
  private static final long EXIT_WAIT_MS = 2000;
  /**
   * The least time a worker has to start and load Helm, whatever the render limit: on a machine whose cores are
   * all busy that takes seconds, and it is no render.
   */
  private static final long START_SECONDS = 60;

  private final Process process;
  private final Path dir;
  private final DataOutputStream requests;
  private final DataInputStream responses;
  private final Thread shutdownHook = new Thread(this::close, "hooklens-helm-stop");
  private boolean ready;

  private final Object watch = new Object();
  /** When the parent began waiting for the worker, by {@link System#nanoTime()}; 0 while it is idle. */
  private long busySince;
  private RenderLimits limits;
  private boolean starting;
  private boolean closed;
  /** Why the watchdog killed the worker. */
  private volatile String stopped;

  private WorkerProcess(Process process, Path dir) {
    this.process = process;
    this.dir = dir;
    this.requests = new DataOutputStream(new BufferedOutputStream(process.getOutputStream()));
    this.responses = new DataInputStream(new BufferedInputStream(process.getInputStream(), 1 << 16));
    Runtime.getRuntime().addShutdownHook(shutdownHook);
    Thread dog = new Thread(this::watch, "hooklens-helm-watchdog");
    dog.setDaemon(true);
    dog.start();
  }

  /** Starts a worker; it loads Helm while the caller prepares its first request. */
  static WorkerProcess start() throws IOException {
    Path dir = Files.createTempDirectory("hooklens-helm-worker-");
    ProcessBuilder builder = new ProcessBuilder(command(dir)).redirectError(ProcessBuilder.Redirect.INHERIT);
    // The JVM announces options taken from these on standard error, once per start; the worker needs none of
    // them, since every request says all it needs.
    builder.environment().remove("JAVA_TOOL_OPTIONS");
    builder.environment().remove("JDK_JAVA_OPTIONS");
    goMemory(builder.environment(), RenderLimits.current());
    try {
      return new WorkerProcess(builder.start(), dir);
    } catch (IOException e) {
      RenderWorker.deleteTree(dir);
      throw new IOException("cannot start Helm's render worker: " + e.getMessage(), e);
    }
  }

  /**
   * Go's collector, in the worker as in a helm binary, runs each time Helm's heap doubles: chart after chart, that is
   * a tenth of a lint's time. The worker collects at a fifth of that rate, and more often as its heap nears half the
   * memory limit, which leaves the rest of the limit for the JVM and for a render past it to be stopped. The user's
   * own settings stand.
   */
  static void goMemory(Map<String, String> environment, RenderLimits limits) {
    environment.putIfAbsent("GOGC", "400");
    environment.putIfAbsent("GOMEMLIMIT", limits.memoryMiB() / 2 + "MiB");
  }

  /**
   * The worker's command: this JVM's binary and class path, so that it runs from the jar and under a test
   * runner alike, and the launcher's flags for a short-lived JVM. Helm copies its native library into the
   * temporary directory, which is the worker's own, so that it goes with the worker even when it is killed.
   */
  private static List<String> command(Path dir) {
    ProcessHandle.Info self = ProcessHandle.current().info();
    List<String> command = new ArrayList<>();
    command.add(self.command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.addAll(List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
    for (String a : self.arguments().orElse(new String[0])) {
      if (!a.startsWith("-") || a.equals("-jar") || a.equals("-cp") || a.equals("-classpath")) {
        break;
      }
      // The launcher's class-data-sharing archive is of the same jar: it shortens the worker's start too.
      if (a.startsWith("-XX:SharedArchiveFile=") || a.startsWith("-Xlog:cds") || a.startsWith("-Xshare:")) {
        command.add(a);
      }
    }
    command.addAll(List.of("-Djava.io.tmpdir=" + dir, "-cp", System.getProperty("java.class.path"),
        RenderWorker.class.getName(), dir.toString()));
    return command;
  }

  /** Whether the worker can take a request: it runs and has not been stopped. */
  boolean alive() {
    synchronized (watch) {
      return !closed && process.isAlive();
    }
  }

  /**
   * Renders one values set. A render the limits stop, or a worker that dies, is a {@link ChartRenderer.Failed}
   * saying why; the worker is then gone, and the caller starts another for the next render.
   */
  ChartRenderer.Rendering render(RenderProtocol.Request request, RenderLimits limits) {
    try {
      if (!ready) {
        busy(limits, true);
        if (responses.read() != RenderProtocol.READY) {
          throw new EOFException();
        }
        ready = true;
      }
      busy(limits, false);
      RenderProtocol.write(requests, request);
      Object response = RenderProtocol.readResponse(responses, limits.outputBytes());
      idle();
      if (rss() > limits.memoryBytes() / 2) {
        // What Helm took stays resident for a while: the next render gets a fresh worker rather than being
        // stopped for memory this one left.
        close();
      }
      if (response instanceof RenderProtocol.TooLarge) {
        return stoppedBecause("it rendered more than " + RenderLimits.size(limits.outputMiB()), RenderLimits.OUTPUT);
      }
      return (ChartRenderer.Rendering) response;
    } catch (IOException e) {
      idle();
      return ended();
    }
  }

  /** A rendering stopped at a limit, saying which and the system property that sets it. */
  static ChartRenderer.Failed stoppedBecause(String why, String property) {
    return new ChartRenderer.Failed("Helm rendering stopped: " + why + "; the system property " + property
        + " sets the limit");
  }

  /** Why the worker stopped answering: the watchdog's reason, else how it ended. */
  private ChartRenderer.Failed ended() {
    String why = stopped;
    if (why == null) {
      try {
        if (!process.waitFor(EXIT_WAIT_MS, TimeUnit.MILLISECONDS)) {
          process.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    close();
    if (why != null) {
      return new ChartRenderer.Failed(why);
    }
    String exit = process.isAlive() ? "" : " (exit code " + process.exitValue() + ")";
    return new ChartRenderer.Failed("Helm rendering stopped: the render worker ended unexpectedly" + exit
        + fatalError().map(f -> ": " + f).orElse(""));
  }

  /**
   * Go's last words when the runtime gave up ({@code fatal error: ...}, {@code panic: ...}): they went to the
   * file the worker's standard error pointed at while Helm ran.
   */
  private Optional<String> fatalError() {
    try (Stream<Path> files = Files.list(dir)) {
      for (Path log : files.filter(p -> p.getFileName().toString().endsWith(".log")).toList()) {
        try (Stream<String> lines = Files.lines(log)) {
          Optional<String> fatal = lines.filter(l -> l.startsWith("fatal error: ") || l.startsWith("panic: "))
              .findFirst();
          if (fatal.isPresent()) {
            return fatal;
          }
        }
      }
    } catch (IOException | java.io.UncheckedIOException e) {
      // Nothing to add to the message.
    }
    return Optional.empty();
  }

  private void busy(RenderLimits l, boolean start) {
    synchronized (watch) {
      limits = l;
      starting = start;
      busySince = System.nanoTime();
      watch.notifyAll();
    }
  }

  private void idle() {
    synchronized (watch) {
      busySince = 0;
    }
  }

  /** Kills the worker, waits for it to end and removes its directory. Safe to call more than once. */
  void close() {
    synchronized (watch) {
      closed = true;
      watch.notifyAll();
    }
    process.destroyForcibly();
    try {
      process.waitFor(EXIT_WAIT_MS, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    RenderWorker.deleteTree(dir);
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // Called from the hook itself, while the JVM shuts down.
    }
  }

  /** The watchdog: checks the limits while the parent waits for the worker, and kills it on a breach. */
  private void watch() {
    try {
      while (true) {
        String breach;
        synchronized (watch) {
          while (busySince == 0 && !closed) {
            watch.wait();
          }
          if (closed) {
            return;
          }
          breach = breach(System.nanoTime() - busySince, limits, starting);
        }
        if (breach != null) {
          stopped = breach;
          process.destroyForcibly();
          return;
        }
        Thread.sleep(POLL_MS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private String breach(long elapsedNanos, RenderLimits l, boolean start) {
    if (rss() > l.memoryBytes()) {
      return stoppedBecause("it used more than " + RenderLimits.size(l.memoryMiB()) + " of memory", RenderLimits.MEMORY)
          .message();
    }
    long startSeconds = Math.max(START_SECONDS, l.timeoutSeconds());
    if (start && elapsedNanos > TimeUnit.SECONDS.toNanos(startSeconds)) {
      return "Helm's render worker did not start within " + startSeconds + " s";
    }
    if (!start && elapsedNanos > l.timeoutNanos()) {
      return stoppedBecause("it ran longer than " + l.timeoutSeconds() + " s", RenderLimits.TIMEOUT).message();
    }
    return null;
  }

  /** The worker's resident memory in bytes, 0 once it has ended. */
  private long rss() {
    try (Stream<String> lines = Files.lines(Path.of("/proc", String.valueOf(process.pid()), "status"))) {
      return lines.filter(l -> l.startsWith("VmRSS:")).findFirst()
          .map(l -> Long.parseLong(l.replaceAll("\\D", "")) * 1024).orElse(0L);
    } catch (IOException | java.io.UncheckedIOException e) {
      return 0;
    }
  }
}
