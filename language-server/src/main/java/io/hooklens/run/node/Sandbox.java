package io.hooklens.run.node;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * Starts a pod's processes. Isolated (bubblewrap present and usable): each pod gets a network namespace
 * with only its own loopback, held by a sleeping holder process; each container runs in it with
 * {@code nsenter}, inside bubblewrap with a read-only root (the host's, or an unpacked image's), a
 * private {@code /tmp}, its own PID
 * namespace (the command is PID 1, as in a container) and {@code --die-with-parent}; exec hooks enter the
 * container's namespaces. Plain: each container is a process group of its own on the host's network and
 * filesystem.
 */
final class Sandbox {
  static final String MARKER = "HOOKLENS_NODE";
  private static final String PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
  // Sends one request and succeeds on any HTTP answer: the kubelet ignores a lifecycle hook's status code.
  private static final String HTTP_GET = """
      exec 3<>"/dev/tcp/$1/$2" || exit 1
      printf '%s' "$3" >&3
      IFS= read -r line <&3 || { echo "no response from $1:$2"; exit 2; }
      printf '%s\\n' "${line%$'\\r'}"
      case "$line" in HTTP/*) exit 0;; *) exit 3;; esac
      """;

  /** bubblewrap's real path, as {@code /proc/PID/exe} shows it; looked up on first use. */
  private static final class Bubblewrap {
    static final String EXECUTABLE = bubblewrapPath();
  }

  private final boolean isolated;
  private final String marker;

  private Sandbox(boolean isolated, String marker) {
    this.isolated = isolated;
    this.marker = marker;
  }

  /** Isolated when bubblewrap can create the namespaces here, else plain. */
  static Sandbox detect(String marker) {
    return new Sandbox(available(), marker);
  }

  static Sandbox plain(String marker) {
    return new Sandbox(false, marker);
  }

  /** Whether bubblewrap is installed and can create the namespaces here. */
  static boolean available() {
    try {
      Process probe = new ProcessBuilder("bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
          "--unshare-net", "--unshare-pid", "--die-with-parent", "nsenter", "--version")
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      return probe.waitFor(10, TimeUnit.SECONDS) && probe.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  boolean isolated() {
    return isolated;
  }

  /** A pod's network: in isolated mode a holder process whose namespace the containers join. */
  final class PodNetwork implements AutoCloseable {
    private final Process holder;
    private final long namespacePid;

    private PodNetwork(Process holder, long namespacePid) {
      this.holder = holder;
      this.namespacePid = namespacePid;
    }

    private List<String> enter() {
      return holder == null ? List.of() : List.of("nsenter", "--net=/proc/" + namespacePid + "/ns/net", "--");
    }

    @Override
    public void close() {
      if (holder != null) {
        holder.destroyForcibly();
        holder.onExit().join();
      }
    }
  }

  PodNetwork openNetwork() throws IOException {
    if (!isolated) {
      return new PodNetwork(null, -1);
    }
    Process holder = start(List.of("bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--unshare-net",
        "--unshare-pid", "--die-with-parent", "sleep", "infinity"), Map.of(), null);
    String own = Files.readSymbolicLink(Path.of("/proc/self/ns/net")).toString();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (System.nanoTime() < deadline && holder.isAlive()) {
      Optional<ProcessHandle> inside = holder.descendants().filter(p -> !own.equals(netNamespace(p.pid())))
          .findFirst();
      if (inside.isPresent()) {
        return new PodNetwork(holder, inside.get().pid());
      }
      sleepBriefly();
    }
    holder.destroyForcibly();
    throw new IOException("bubblewrap did not create the pod's network namespace");
  }

  private static String netNamespace(long pid) {
    return link("/proc/" + pid + "/ns/net");
  }

  private static String link(String path) {
    try {
      return Files.readSymbolicLink(Path.of(path)).toString();
    } catch (IOException e) {
      return "";
    }
  }

  /** A container's process: the outer process Java started, and the container's own main process. */
  final class ContainerProcess {
    final Process process;

    private ContainerProcess(Process process) {
      this.process = process;
    }

    /** The container's PID 1 (isolated) or the process group leader (plain), once it exists. */
    Optional<ProcessHandle> main() {
      if (!isolated) {
        return Optional.of(process.toHandle());
      }
      return process.children().findFirst();
    }

    void terminate() {
      main().ifPresent(ProcessHandle::destroy);
    }

    /** After the main process ended: its PID namespace took the rest along; a process group must be killed. */
    void reap() {
      if (!isolated) {
        killGroup(process.pid());
      }
    }

    /** SIGKILL to everything in the container: its PID namespace, or its process group. */
    void kill() {
      if (isolated) {
        main().ifPresent(ProcessHandle::destroyForcibly);
      } else if (process.isAlive()) {
        killGroup(process.pid());
      }
      process.destroyForcibly();
    }
  }

  /** A directory bound into a container at {@code target}. */
  record Mount(Path source, String target, boolean readOnly) {}

  /**
   * bubblewrap arguments that rebuild a root directory entry by entry on bubblewrap's own tmpfs root:
   * directories and files bound read-only, symbolic links recreated; {@code /dev}, {@code /proc} and
   * {@code /tmp} are the sandbox's own.
   */
  private static List<String> rootEntries(Path root) throws IOException {
    List<String> args = new ArrayList<>();
    try (var entries = Files.list(root)) {
      for (Path entry : entries.sorted().toList()) {
        String name = "/" + entry.getFileName();
        if (List.of("/dev", "/proc", "/tmp").contains(name)) {
          continue;
        }
        if (Files.isSymbolicLink(entry)) {
          args.addAll(List.of("--symlink", Files.readSymbolicLink(entry).toString(), name));
        } else if (Files.isDirectory(entry) || Files.isRegularFile(entry)) {
          args.addAll(List.of("--ro-bind", entry.toString(), name));
        }
      }
    }
    return args;
  }

  /**
   * Starts a container's command; {@code root}, when set, is an unpacked image filesystem mounted
   * read-only as the container's root instead of the host's (isolated mode only). The root's top-level
   * entries are bound one by one onto a tmpfs that is made read-only last, so that a volume can be mounted
   * at a new top-level path (such as {@code /data}) as a kubelet would; a target inside one of those entries
   * (say {@code /var/lib/x}) must exist already, since the entry itself is read-only.
   */
  ContainerProcess startContainer(PodNetwork network, String hostname, List<String> argv, Map<String, String> env,
      String workingDir, List<Mount> mounts, Path root, List<String> hookWords) throws IOException {
    if (root != null && !isolated) {
      throw new IOException("an image root needs bubblewrap, which is missing or cannot create namespaces here");
    }
    List<String> command = new ArrayList<>(List.of("setsid"));
    if (isolated) {
      command.addAll(network.enter());
      Path rootDir = root == null ? Path.of("/") : root;
      command.add("bwrap");
      command.addAll(rootEntries(rootDir));
      command.addAll(List.of("--dev", "/dev", "--proc", "/proc",
          "--tmpfs", "/tmp", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--hostname", hostname, "--as-pid-1",
          "--die-with-parent", "--new-session"));
      if (root == null) {
        List<String> words = new ArrayList<>(argv);
        words.addAll(hookWords);
        if (workingDir != null) {
          words.add(workingDir);
        }
        for (Path named : namedUnderTmp(words)) {
          command.addAll(List.of("--ro-bind", named.toString(), named.toString()));
        }
      }
      for (Mount mount : mounts) {
        Path target = Path.of(mount.target()).normalize();
        if (target.getNameCount() == 0) {
          throw new IOException("cannot mount a volume at " + mount.target());
        }
        Path top = rootDir.resolve(target.getName(0).toString());
        Path onRoot = rootDir.resolve(target.toString().substring(1));
        boolean inEntry = target.getNameCount() > 1 && Files.exists(top, LinkOption.NOFOLLOW_LINKS)
            && !target.startsWith("/tmp/");
        if (inEntry && !Files.isDirectory(onRoot)) {
          throw new IOException("cannot mount a volume at " + mount.target() + ": " + top.getFileName() + " comes "
              + "read-only from the container's root and has no directory " + target.subpath(1, target.getNameCount())
              + "; mount it at a new top-level directory, or under /tmp");
        }
        command.addAll(List.of(mount.readOnly() ? "--ro-bind" : "--bind", mount.source().toString(),
            target.toString()));
      }
      command.addAll(List.of("--remount-ro", "/"));
      // An image without WORKDIR starts in /; the host's current directory means nothing in a container.
      command.addAll(List.of("--chdir", workingDir != null ? workingDir : "/"));
      command.add("--");
    }
    command.addAll(argv);
    ContainerProcess container = new ContainerProcess(start(command, env, isolated ? null : workingDir));
    if (isolated) {
      awaitExec(container.process);
    }
    return container;
  }

  /**
   * The files and folders under the host's {@code /tmp} that these words name and that exist: the container's
   * {@code /tmp} is its own, so a command run on the host's files would not find them there otherwise. A path
   * may be a whole word, an entry of a {@code :}-separated list such as a class path, follow {@code =}, or
   * stand in a shell script between spaces, quotes and operators. A path inside another named one is covered
   * by it.
   */
  static List<Path> namedUnderTmp(List<String> words) {
    Path tmp = Path.of("/tmp");
    TreeSet<Path> named = new TreeSet<>();
    for (String word : words) {
      for (String part : word.split("[\\s:='\"();|&<>]+")) {
        if (!part.startsWith("/tmp/")) {
          continue;
        }
        Path path = Path.of(part).normalize();
        if (path.startsWith(tmp) && !path.equals(tmp) && Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
          named.add(path);
        }
      }
    }
    List<Path> outermost = new ArrayList<>();
    for (Path path : named) {
      if (outermost.stream().noneMatch(path::startsWith)) {
        outermost.add(path);
      }
    }
    return outermost;
  }

  // Started means the command runs in its namespaces, as when a runtime's StartContainer returns: until
  // bubblewrap's child has executed it, hooks would enter half-built namespaces.
  private static void awaitExec(Process outer) {
    // Not the outer process's own executable: it may still be setsid or nsenter, not yet bubblewrap.
    String bwrap = Bubblewrap.EXECUTABLE;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (System.nanoTime() < deadline && outer.isAlive()) {
      Optional<ProcessHandle> child = outer.children().findFirst();
      if (child.isPresent() && !bwrap.equals(executable(child.get().pid()))) {
        return;
      }
      sleepBriefly();
    }
  }

  private static String bubblewrapPath() {
    for (String dir : PATH.split(":")) {
      Path candidate = Path.of(dir, "bwrap");
      if (Files.isExecutable(candidate)) {
        try {
          return candidate.toRealPath().toString();
        } catch (IOException e) {
          return candidate.toString();
        }
      }
    }
    return "";
  }

  private static String executable(long pid) {
    return link("/proc/" + pid + "/exe");
  }

  /** An exec hook: inside the container's namespaces (isolated), else a process group next to it. */
  Process startExec(ContainerProcess container, List<String> argv, Map<String, String> env) throws IOException {
    List<String> command = new ArrayList<>();
    if (isolated) {
      long pid = container.main().orElseThrow(() -> new IOException("container has no process")).pid();
      command.addAll(List.of("nsenter", "--target", String.valueOf(pid), "--mount", "--net", "--pid", "--ipc",
          "--uts", "--wd", "--"));
    } else {
      command.add("setsid");
    }
    command.addAll(argv);
    return start(command, env, null);
  }

  /** An HTTP GET sent from inside the pod's network namespace (plain: from the host). */
  Process startHttpGet(PodNetwork network, String host, int port, String request) throws IOException {
    List<String> command = new ArrayList<>(network.enter());
    command.addAll(List.of("bash", "-c", HTTP_GET, "bash", host, String.valueOf(port), request));
    return start(command, Map.of(), null);
  }

  private Process start(List<String> command, Map<String, String> env, String workingDir) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    Map<String, String> environment = builder.environment();
    environment.clear();
    environment.put("PATH", PATH);
    environment.putAll(env);
    environment.put(MARKER, marker);
    if (workingDir != null) {
      builder.directory(Path.of(workingDir).toFile());
    }
    return builder.start();
  }

  // Without PID namespaces a container's children may outlive its main process; the group takes them all.
  static void killGroup(long pgid) {
    try {
      new ProcessBuilder("bash", "-c", "kill -KILL -- -\"$1\" 2>/dev/null", "bash", String.valueOf(pgid))
          .start().waitFor(5, TimeUnit.SECONDS);
    } catch (IOException e) {
      ProcessHandle.of(pgid).ifPresent(ProcessHandle::destroyForcibly);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void sleepBriefly() {
    try {
      Thread.sleep(5);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
