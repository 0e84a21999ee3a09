package io.hooklens.chart;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Real Helm as the user's own {@code helm} binary, for where helm-java's native library is not bundled (macOS,
 * Windows, arm64) or when a binary is named. It renders the same chart copy with the same arguments as the render
 * worker ({@code helm template}; the copy's hooks hidden, so that Helm renders them as the other resources, and
 * restored in the output), so its output is the worker's, and is bounded by the same {@link RenderLimits} of time
 * and output: past one, Helm and every process it started are killed. Its memory is Helm's own business here: the
 * binary runs outside any JVM.
 *
 * <p>Without {@code --include-crds}: the worker's Helm leaves the files of {@code crds/} out of its output (only
 * the CLI prints them), and the rules learn their names from the chart itself ({@link ChartCopy#crdNames}); a
 * {@code crds/} file in the output would be linted as a template, which Helm never treats it as.
 */
final class HelmBinary {
  /** The system property that names the binary, a path or a name looked up on the PATH. */
  static final String PROPERTY = "hooklens.helm.binary";
  /** The environment variable that names it when the property does not. */
  static final String ENVIRONMENT = "HOOKLENS_HELM";

  /** Helm's last words before it exits with an error: {@code Error: } and the message. */
  private static final String ERROR = "Error: ";
  /** The most of Helm's standard error kept: its error comes last. */
  private static final int MAX_ERROR_BYTES = 64 * 1024;
  /** How long the readers of a process that ended may take to see the end of its output. */
  private static final long DRAIN_MS = 2000;
  private static final boolean WINDOWS =
      System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
  /** Linux's setsid, which makes Helm the leader of a process group of its own, then killed as a whole. */
  private static final Optional<Path> SETSID = WINDOWS ? Optional.empty() : find("setsid");

  private HelmBinary() {}

  /** The binary the property or the environment names, as given; empty when neither does. */
  static Optional<String> named() {
    String name = System.getProperty(PROPERTY);
    if (name == null || name.isBlank()) {
      name = System.getenv(ENVIRONMENT);
    }
    return name == null || name.isBlank() ? Optional.empty() : Optional.of(name.strip());
  }

  /** The executable a name stands for: a path as it is, a bare name looked up on the PATH. */
  static Optional<Path> find(String name) {
    if (name.contains("/") || name.contains(File.separator)) {
      Path p = Path.of(name);
      return Files.isRegularFile(p) && Files.isExecutable(p) ? Optional.of(p) : Optional.empty();
    }
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    List<String> names = WINDOWS && !name.toLowerCase(Locale.ROOT).endsWith(".exe") ? List.of(name + ".exe", name)
        : List.of(name);
    for (String dir : path.split(File.pathSeparator)) {
      for (String n : names) {
        if (!dir.isEmpty()) {
          Path p = Path.of(dir, n);
          if (Files.isRegularFile(p) && Files.isExecutable(p)) {
            return Optional.of(p);
          }
        }
      }
    }
    return Optional.empty();
  }

  /**
   * Renders as the render worker does with the same request, or builds the chart's dependencies when the request
   * asks, in a process of its own bounded by the limits.
   */
  static ChartRenderer.Rendering render(Path binary, RenderProtocol.Request r, RenderLimits limits)
      throws IOException {
    Process process = start(binary, r);
    Reader out = new Reader(process.getInputStream(), limits.outputBytes(), () -> kill(process));
    Reader err = new Reader(process.getErrorStream(), MAX_ERROR_BYTES, null);
    try {
      boolean ended = process.waitFor(limits.timeoutNanos(), TimeUnit.NANOSECONDS);
      if (!ended && !out.over()) {
        kill(process);
        return WorkerProcess.stoppedBecause("it ran longer than " + limits.timeoutSeconds() + " s",
            RenderLimits.TIMEOUT);
      }
      // A process Helm started may still hold its output; it goes with Helm.
      if (!out.drained() || !err.drained()) {
        kill(process);
      }
      // Only once read to its end is the output known to be within the limit.
      if (out.over()) {
        return WorkerProcess.stoppedBecause("it rendered more than " + RenderLimits.size(limits.outputMiB()),
            RenderLimits.OUTPUT);
      }
      String stderr = err.text();
      if (process.exitValue() != 0) {
        return new ChartRenderer.Failed(failure(stderr, process.exitValue()));
      }
      return new ChartRenderer.Rendered(HelmText.restoreHooks(out.text()),
          HelmLog.skippedHooks(HelmLog.messages(stderr)));
    } catch (InterruptedException e) {
      kill(process);
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while Helm rendered", e);
    }
  }

  private static Process start(Path binary, RenderProtocol.Request r) throws IOException {
    List<String> command = new ArrayList<>();
    SETSID.ifPresent(s -> command.add(s.toString()));
    if (r.buildDependencies()) {
      command.addAll(List.of(binary.toString(), "dependency", "build", r.chart()));
    } else {
      command.addAll(List.of(binary.toString(), "template", r.release(), r.chart(), "--namespace", r.namespace(),
          "--kube-version", r.kubeVersion()));
    }
    for (String f : r.valuesFiles()) {
      command.addAll(List.of("--values", f));
    }
    if (!r.set().isEmpty()) {
      command.addAll(List.of("--set", r.set()));
    }
    if (!r.setFiles().isEmpty()) {
      command.addAll(List.of("--set-file", r.setFiles()));
    }
    ProcessBuilder builder = new ProcessBuilder(command)
        .directory(Path.of(r.chart()).getParent().toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File(WINDOWS ? "NUL" : "/dev/null")));
    // Helm's debug output would be taken for its error.
    builder.environment().remove("HELM_DEBUG");
    try {
      return builder.start();
    } catch (IOException e) {
      throw new IOException("cannot start " + binary + ": " + e.getMessage(), e);
    }
  }

  /** Helm's error, from the line that starts with {@code Error: } on; what it wrote when it has none. */
  private static String failure(String stderr, int exit) {
    // Counted in the text with a line break before it, an index is where the line starts in the text itself.
    int at = ("\n" + stderr).indexOf("\n" + ERROR);
    if (at >= 0) {
      return stderr.substring(at + ERROR.length()).strip();
    }
    String said = stderr.strip();
    return "helm exited with code " + exit + (said.isEmpty() ? "" : ": " + said);
  }

  /** Kills Helm's process group where it leads one, and else Helm and every process under it. */
  private static void kill(Process process) {
    List<ProcessHandle> under = process.descendants().toList();
    // Only a group Helm leads: without setsid, its group is this JVM's.
    if (SETSID.isPresent()) {
      try {
        new ProcessBuilder("kill", "-KILL", "--", "-" + process.pid()).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(DRAIN_MS, TimeUnit.MILLISECONDS);
      } catch (IOException e) {
        // The process handles below still reach Helm and its children.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    process.destroyForcibly();
    under.forEach(ProcessHandle::destroyForcibly);
    try {
      process.waitFor(DRAIN_MS, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Reads one of Helm's streams on a thread of its own, keeping at most a number of bytes. */
  private static final class Reader {
    private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
    private final Thread thread;
    private final long max;
    /** What to do when the stream passes {@link #max}; without it, the last bytes are kept (an error's tail). */
    private final Runnable onOver;
    private volatile boolean over;

    Reader(InputStream in, long max, Runnable onOver) {
      this.max = max;
      this.onOver = onOver;
      this.thread = new Thread(() -> read(in), "hooklens-helm-output");
      thread.setDaemon(true);
      thread.start();
    }

    private void read(InputStream in) {
      byte[] buffer = new byte[1 << 16];
      try (in) {
        int n;
        while ((n = in.read(buffer)) >= 0) {
          synchronized (kept) {
            kept.write(buffer, 0, n);
            if (kept.size() > max) {
              if (onOver != null) {
                over = true;
                onOver.run();
                return;
              }
              byte[] all = kept.toByteArray();
              kept.reset();
              kept.write(all, all.length - (int) max, (int) max);
            }
          }
        }
      } catch (IOException e) {
        // Killed, or the stream closed: what was read stands.
      }
    }

    boolean over() {
      return over;
    }

    /** Whether the stream ended, waiting a moment for it. */
    boolean drained() throws InterruptedException {
      thread.join(DRAIN_MS);
      return !thread.isAlive();
    }

    String text() {
      synchronized (kept) {
        return kept.toString(StandardCharsets.UTF_8);
      }
    }
  }
}
