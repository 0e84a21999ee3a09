package io.hooklens.chart;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.stream.Stream;

/**
 * The render worker: a JVM of its own that runs Helm for its parent ({@link WorkerProcess}), which can stop it
 * when a chart runs away. It reads requests ({@link RenderProtocol}) on standard input and answers on standard
 * output, one at a time, and ends as soon as standard input ends, even in the middle of a render, so that it
 * never outlives its parent.
 */
public final class RenderWorker {
  private RenderWorker() {}

  /**
   * Serves its parent until standard input ends.
   *
   * @param args the worker's own temporary directory (its {@code java.io.tmpdir}), removed when it ends
   */
  public static void main(String[] args) throws Exception {
    // Before JNA's first use: Helm's library loads by its path and libc from the process itself, so JNA's search
    // of the system's library folders, which starts ldconfig in every worker, would find nothing needed.
    if (System.getProperty("jna.platform.library.path") == null) {
      System.setProperty("jna.platform.library.path", "");
    }
    Path dir = Path.of(args[0]);
    OutputStream protocol = takeStandardOutput();
    DataOutputStream out = new DataOutputStream(new BufferedOutputStream(protocol, 1 << 16));
    DataInputStream in = new DataInputStream(new BufferedInputStream(new FileInputStream(FileDescriptor.in)));
    BlockingQueue<RenderProtocol.Request> requests = new SynchronousQueue<>();
    // Standard input is read on a thread of its own, so that its end is seen while Helm runs.
    Thread reader = new Thread(() -> {
      try {
        while (true) {
          requests.put(RenderProtocol.readRequest(in));
        }
      } catch (IOException | InterruptedException e) {
        end(dir, 0);
      }
    }, "hooklens-render-requests");
    reader.setDaemon(true);
    reader.start();
    try {
      try {
        HelmCall.load();
      } catch (RuntimeException | LinkageError e) {
        // Helm's library cannot load here (a temporary directory mounted noexec, a missing C library): one line
        // says why, and the parent reports the worker's end on the chart.
        System.err.println("hooklens: Helm's render worker cannot load Helm: " + e.getMessage());
        end(dir, 1);
      }
      out.writeByte(RenderProtocol.READY);
      out.flush();
      while (true) {
        RenderProtocol.Request request = requests.take();
        ChartRenderer.Rendering rendering;
        try {
          rendering = request.buildDependencies() ? HelmCall.buildDependencies(request) : HelmCall.render(request);
        } catch (IOException | RuntimeException e) {
          // The chart is not to blame, but the parent reports it on the chart and goes on.
          rendering = new ChartRenderer.Failed("the render worker failed: " + e);
        }
        RenderProtocol.write(out, rendering, request.maxOutputBytes());
      }
    } catch (IOException e) {
      // The parent no longer reads.
      end(dir, 0);
    }
  }

  /** Renders a chart with Helm in this JVM, as a worker does: see {@link ChartLinter#warmUpWorker}. */
  static void warmUp(Path chart) throws IOException {
    try (ChartCopy copy = ChartCopy.of(chart)) {
      HelmCall.render(new RenderProtocol.Request(copy.root().toString(), List.of(), "", "", "", "v1.34.0",
          Long.MAX_VALUE, Release.DEFAULT.name(), Release.DEFAULT.namespace(), false));
    }
  }

  /**
   * The standard output, kept for the protocol alone: descriptor 1 then goes where descriptor 2 goes, so that
   * nothing native Helm or the JVM prints can reach the parent as a response.
   */
  private static OutputStream takeStandardOutput() throws IOException {
    System.setOut(System.err);
    int kept = LibC.INSTANCE.dup(1);
    if (kept < 0 || LibC.INSTANCE.dup2(2, 1) < 0) {
      throw new IOException("cannot move standard output aside");
    }
    // Opening the descriptor's /proc entry gives a Java stream on the same pipe.
    FileOutputStream stream = new FileOutputStream("/proc/self/fd/" + kept);
    LibC.INSTANCE.close(kept);
    return stream;
  }

  /** Ends the worker at once, Helm's copy of its native library and its log files removed first. */
  private static void end(Path dir, int status) {
    deleteTree(dir);
    Runtime.getRuntime().halt(status);
  }

  /** Removes a worker's directory; what the other side removed meanwhile is not missed. */
  static void deleteTree(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException | UncheckedIOException e) {
      // Already gone.
    }
  }
}
