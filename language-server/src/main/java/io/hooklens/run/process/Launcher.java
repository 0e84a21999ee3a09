package io.hooklens.run.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Starts every process a run owns (containers, hooks, the control plane) from one thread that lives as long as the
 * JVM. The kernel's parent-death signal, which bubblewrap's {@code --die-with-parent} and
 * {@code setpriv --pdeathsig} set, fires when the thread that started a process ends, not its process: a process
 * started from a pooled thread that idles out would be killed with it.
 */
public final class Launcher {
  private static final ExecutorService THREAD = Executors.newSingleThreadExecutor(runnable -> {
    Thread thread = new Thread(runnable, "hooklens-launcher");
    thread.setDaemon(true);
    return thread;
  });
  private static final List<String> PATH = List.of("/usr/bin", "/bin", "/usr/sbin", "/sbin");

  private Launcher() {}

  /** Starts the process from the launcher's thread and returns it; an interrupt meanwhile is kept for the caller. */
  public static Process start(ProcessBuilder builder) throws IOException {
    Future<Process> started = THREAD.submit(builder::start);
    // Not given up on an interrupt: the process may already run, and only its caller can end it.
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return started.get();
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException e) {
          throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * The command run under {@code setpriv --pdeathsig KILL} where util-linux's setpriv is installed, so that it is
   * killed when the JVM ends, even by SIGKILL, which no shutdown hook sees; as it is elsewhere. A JVM that died
   * before setpriv set the signal would never send it: a shell between them checks that its parent is still the
   * JVM, and only then becomes the command.
   */
  public static List<String> dyingWithJvm(List<String> command) {
    if (Setpriv.PATH == null) {
      return command;
    }
    List<String> wrapped = new ArrayList<>(List.of(Setpriv.PATH, "--pdeathsig", "KILL", "--", "/bin/sh", "-c",
        "[ \"$PPID\" = \"$0\" ] && exec \"$@\"", String.valueOf(ProcessHandle.current().pid())));
    wrapped.addAll(command);
    return wrapped;
  }

  /** Whether processes started with {@link #dyingWithJvm} die with the JVM here. */
  public static boolean killsWithJvm() {
    return Setpriv.PATH != null;
  }

  /** setpriv's path, looked up on first use. */
  private static final class Setpriv {
    static final String PATH = find();

    private static String find() {
      List<String> dirs = new ArrayList<>(Launcher.PATH);
      String path = System.getenv("PATH");
      if (path != null) {
        dirs.addAll(0, List.of(path.split(":")));
      }
      for (String dir : dirs) {
        if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "setpriv"))) {
          String setpriv = Path.of(dir, "setpriv").toString();
          return takesPdeathsig(setpriv) ? setpriv : null;
        }
      }
      return null;
    }

    // util-linux has had --pdeathsig since 2.33; an older setpriv would refuse every command.
    private static boolean takesPdeathsig(String setpriv) {
      try {
        Process probe = new ProcessBuilder(setpriv, "--pdeathsig", "KILL", "--", "true")
            .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!probe.waitFor(10, TimeUnit.SECONDS)) {
          probe.destroyForcibly();
          return false;
        }
        return probe.exitValue() == 0;
      } catch (IOException e) {
        return false;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
  }
}
