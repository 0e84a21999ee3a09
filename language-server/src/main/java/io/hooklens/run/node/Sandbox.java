package io.hooklens.run.node;

import io.hooklens.run.process.Launcher;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Starts a pod's processes. Isolated (bubblewrap present and usable): each pod gets a network namespace
 * with only its own loopback, held by a sleeping holder process; each container runs in it with
 * {@code nsenter}, inside bubblewrap: a user namespace of its own, mapped, when the agent runs as root, to an
 * unprivileged host uid with no account ({@link #SANDBOX_UID}), no capabilities, the {@link SeccompFilter},
 * new PID (the command is PID 1, as in a container), IPC, UTS and cgroup namespaces, a process and open-file
 * limit (and a pids and memory cgroup where the machine has them), and a read-only root that is not the
 * host's: an unpacked image's, or a minimal one from the host's {@code /usr}, {@code /bin}, {@code /sbin},
 * {@code /lib*}, {@code /opt} and a filtered {@code /etc}, with its own {@code /proc}, {@code /dev} and a
 * private writable {@code /tmp}. Exec hooks enter the container's namespaces as the same host uid, with no
 * capabilities, no new privileges and the same filter. Plain: each container is a process group of its own on
 * the host's network and filesystem.
 */
final class Sandbox {
  private static final Logger LOG = Logger.getLogger(Sandbox.class.getName());
  static final String MARKER = "HOOKLENS_NODE";
  /**
   * The host uid containers and hooks run as when the agent is root: above the range accounts use, so that it
   * owns no file and no process of the machine, and one per JVM, so that two runs do not share it.
   */
  static final int SANDBOX_UID = 200_000 + (int) (ProcessHandle.current().pid() % 100_000);
  private static final boolean ROOT = uid() == 0;
  /** Processes (threads count too) one sandbox uid may have at once: room for a JVM app, not for a fork bomb. */
  static final int MAX_PROCESSES = 1024;
  static final int MAX_OPEN_FILES = 4096;
  /** The node's own address, and a pod's when it cannot have one of its own. */
  static final String LOOPBACK = "127.0.0.1";
  private static final String PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
  /** What of the host a container without an image sees, read-only. */
  private static final List<String> MINIMAL_ROOT = List.of("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64",
      "/libx32", "/opt");
  /**
   * What of the host's {@code /etc} stays out: password hashes, sudo rules, SSH host keys, TLS private keys,
   * Kerberos keytabs, the machine's identity and anything named like a secret.
   */
  private static final List<String> ETC_HIDDEN = List.of("shadow", "shadow-", "gshadow", "gshadow-", "sudoers",
      "sudoers.d", "ssh", "ssl", "krb5.keytab", "machine-id", "security", "subuid", "subgid", "subuid-", "subgid-");
  // Sends one request and succeeds on any HTTP answer: the kubelet ignores a lifecycle hook's status code.
  private static final String HTTP_GET = """
      exec 3<>"/dev/tcp/$1/$2" || exit 1
      printf '%s' "$3" >&3
      IFS= read -r line <&3 || { echo "no response from $1:$2"; exit 2; }
      printf '%s\\n' "${line%$'\\r'}"
      case "$line" in HTTP/*) exit 0;; *) exit 3;; esac
      """;
  /**
   * Opens a TCP connection, as the kubelet's tcpSocket probe does, and closes it; with {@code relay} says
   * {@code connected}, then sends its input and prints what comes back until it is killed (a gRPC probe's
   * connection; the request is written whole, so the writer ends with the input). The writer reads the input as
   * descriptor 4: a command in the background without job control reads /dev/null otherwise.
   */
  private static final String DIAL = """
      exec 3<>"/dev/tcp/$1/$2" 4<&0 || exit 1
      [ "$3" = relay ] || exit 0
      echo connected
      cat <&4 >&3 &
      exec cat <&3
      """;
  /**
   * Opens bubblewrap's argument file on descriptor 4 ({@code --args 4}) and the seccomp filter, if any, on
   * descriptor 3 ({@code --seccomp 3}), joins a memory cgroup if one is named (its {@code cgroup.procs}), then
   * runs the rest. {@code -p}: bash reads no startup file.
   */
  private static final String WITH_FDS = "exec 4<\"$1\" && if [ -n \"$2\" ]; then exec 3<\"$2\"; fi && "
      + "if [ -n \"$3\" ]; then echo $$ > \"$3\"; fi && shift 3 && exec \"$@\"";
  /**
   * Variables the dynamic loader and the C library read (glibc's list for privileged programs), and shells'
   * startup files: an exec hook passes through privileged tools before it reaches the container, so they are
   * kept out of its environment.
   */
  static final List<String> UNSAFE_FOR_HOOKS = List.of("GCONV_PATH", "GETCONF_DIR", "GLIBC_TUNABLES",
      "HOSTALIASES", "LD_AUDIT", "LD_DEBUG", "LD_DEBUG_OUTPUT", "LD_DYNAMIC_WEAK", "LD_HWCAP_MASK",
      "LD_LIBRARY_PATH", "LD_ORIGIN_PATH", "LD_PRELOAD", "LD_PROFILE", "LD_SHOW_AUXV", "LD_USE_LOAD_BIAS",
      "LOCALDOMAIN", "LOCPATH", "MALLOC_TRACE", "NIS_PATH", "NLSPATH", "RESOLV_HOST_CONF", "RES_OPTIONS", "TMPDIR",
      "TZDIR", "BASH_ENV", "ENV");

  /** bubblewrap's real path, as {@code /proc/PID/exe} shows it; looked up on first use. */
  private static final class Bubblewrap {
    static final String EXECUTABLE = onPath("bwrap");
  }

  /** Where a container's end is taken in and what it left is killed: never a pod's loop or the common pool. */
  private static final ExecutorService REAPER = Executors.newCachedThreadPool(runnable -> {
    Thread thread = new Thread(runnable, "hooklens-reaper");
    thread.setDaemon(true);
    return thread;
  });

  private final boolean isolated;
  private final String marker;
  /** The agent's own files for the sandbox (filter, argument files), readable by the agent's user only. */
  private final Path workDir;
  /** The compiled {@link SeccompFilter} in {@link #workDir}; null where this machine has no table. */
  private final Path filter;
  private final AtomicInteger files = new AtomicInteger();
  /** This agent's memory cgroups, one per container with a limit; null where limits are not enforced. */
  private final Path memoryGroups;

  private Sandbox(boolean isolated, String marker, Path workDir, Path filter, Path memoryGroups) {
    this.isolated = isolated;
    this.marker = marker;
    this.workDir = workDir;
    this.filter = filter;
    this.memoryGroups = memoryGroups;
  }

  /** Isolated when bubblewrap can create the sandbox here, else plain. */
  static Sandbox detect(String marker) throws IOException {
    if (!available()) {
      return plain(marker);
    }
    Path workDir = Files.createTempDirectory("hooklens-sandbox-",
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    byte[] program = SeccompFilter.forThisMachine();
    Path filter = null;
    if (program.length > 0) {
      filter = Files.write(workDir.resolve("seccomp.bpf"), program);
    }
    Path memoryGroups = null;
    Optional<Path> controller = memoryController();
    if (controller.isPresent()) {
      try {
        memoryGroups = Files.createDirectory(controller.get().resolve("hooklens-" + marker));
      } catch (IOException e) {
        // Not allowed here after all: limits are not enforced, and the plan says so.
      }
    }
    return new Sandbox(true, marker, workDir, filter, memoryGroups);
  }

  static Sandbox plain(String marker) {
    return new Sandbox(false, marker, null, null, null);
  }

  /** Whether bubblewrap, nsenter, setpriv and prlimit are here and a container can start as it would. */
  static boolean available() {
    try {
      List<String> probe = new ArrayList<>(asSandboxUser());
      probe.addAll(List.of("bwrap", "--unshare-user", "--unshare-pid", "--unshare-net", "--cap-drop", "ALL",
          "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--die-with-parent", "nsenter", "--version"));
      Process p = new ProcessBuilder(probe).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
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

  /** Whether system calls are filtered: isolated, on a machine with a {@link SeccompFilter} table. */
  boolean filtered() {
    return filter != null;
  }

  /** Removes what the sandbox wrote for itself; its processes are gone by then. */
  void close() {
    if (memoryGroups != null) {
      try (var groups = Files.list(memoryGroups)) {
        for (Path group : groups.filter(Files::isDirectory).toList()) {
          Files.deleteIfExists(group);
        }
        Files.deleteIfExists(memoryGroups);
      } catch (IOException e) {
        LOG.warning("cannot remove the memory cgroups " + memoryGroups + ": " + e.getMessage());
      }
    }
    if (workDir == null) {
      return;
    }
    try (var entries = Files.list(workDir)) {
      for (Path p : entries.toList()) {
        Files.deleteIfExists(p);
      }
      Files.deleteIfExists(workDir);
    } catch (IOException e) {
      // Temporary files: the system's clean-up takes them.
    }
  }

  /**
   * bubblewrap's argument file setting {@code env} in what it starts: neither in a command line that every user
   * may read, nor in the environment of the privileged tools before it.
   */
  private Path environmentArgs(Map<String, String> env) throws IOException {
    StringBuilder args = new StringBuilder();
    for (Map.Entry<String, String> e : env.entrySet()) {
      // An environment ends a string at NUL, as execve would; a NUL must not start an option of its own.
      args.append("--setenv\0").append(beforeNul(e.getKey())).append('\0').append(beforeNul(e.getValue()))
          .append('\0');
    }
    args.append("--setenv\0").append(MARKER).append('\0').append(marker).append('\0');
    return Files.writeString(workDir.resolve("env-" + files.incrementAndGet()), args);
  }

  private static String beforeNul(String text) {
    int nul = text.indexOf('\0');
    return nul < 0 ? text : text.substring(0, nul);
  }

  /** {@code bash} opening an argument file on descriptor 4 and the filter, if any, on 3, before the rest. */
  private List<String> withFds(Path args, Path cgroup) {
    return List.of("bash", "-p", "-c", WITH_FDS, "bash", args.toString(), filter == null ? "" : filter.toString(),
        cgroup == null ? "" : cgroup.resolve("cgroup.procs").toString());
  }

  /**
   * The cgroup (v1) memory controller's folder of this process, where the agent may make groups: root only, and
   * only where the controller is mounted at {@code /sys/fs/cgroup/memory}; empty otherwise (cgroup v2 would
   * need this process out of its own group first).
   */
  static Optional<Path> memoryController() {
    if (!ROOT) {
      return Optional.empty();
    }
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
        String[] parts = line.split(":", 3);
        if (parts.length == 3 && List.of(parts[1].split(",")).contains("memory")) {
          Path own = Path.of("/sys/fs/cgroup/memory" + parts[2]);
          return Files.isWritable(own) && Files.isRegularFile(own.resolve("memory.limit_in_bytes"))
              ? Optional.of(own) : Optional.empty();
        }
      }
    } catch (IOException | RuntimeException e) {
      // No cgroups here.
    }
    return Optional.empty();
  }

  /** A memory cgroup for one container, with its limit; null where limits cannot be enforced. */
  private Path memoryGroup(Long limitBytes) throws IOException {
    if (limitBytes == null || memoryGroups == null) {
      return null;
    }
    Path group = Files.createDirectories(memoryGroups.resolve("c" + files.incrementAndGet()));
    Files.writeString(group.resolve("memory.limit_in_bytes"), String.valueOf(limitBytes));
    return group;
  }

  /** The user the runner's processes are: an unprivileged host uid when the agent is root, else the agent's. */
  static int hostUid() {
    return ROOT ? SANDBOX_UID : uid();
  }

  /**
   * Gives the sandbox's user a directory the agent made for it (volumes, unpacked images): it owns the tree,
   * as a container runtime's user owns its container's files.
   */
  static void share(Path tree) throws IOException {
    if (!ROOT) {
      return;
    }
    UserPrincipalLookupService lookup = tree.getFileSystem().getUserPrincipalLookupService();
    // A number that names no account is taken as the uid itself.
    UserPrincipal user = lookup.lookupPrincipalByName(String.valueOf(SANDBOX_UID));
    GroupPrincipal group = lookup.lookupPrincipalByGroupName(String.valueOf(SANDBOX_UID));
    try (var paths = Files.walk(tree)) {
      for (Path p : paths.toList()) {
        PosixFileAttributeView view = Files.getFileAttributeView(p, PosixFileAttributeView.class,
            LinkOption.NOFOLLOW_LINKS);
        view.setOwner(user);
        view.setGroup(group);
      }
    }
  }

  /** {@code setpriv} to the sandbox's uid when the agent is root; nothing otherwise. */
  private static List<String> asSandboxUser() {
    return ROOT ? List.of("setpriv", "--reuid=" + SANDBOX_UID, "--regid=" + SANDBOX_UID, "--clear-groups", "--")
        : List.of();
  }

  private static int uid() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("Uid:")) {
          return Integer.parseInt(line.split("\\s+")[1]);
        }
      }
    } catch (IOException | RuntimeException e) {
      // Not Linux, or no /proc: treated as not root.
    }
    return -1;
  }

  /**
   * A pod's network: in isolated mode a holder process whose namespace the containers join, with the pod's IP on
   * its loopback device beside 127.0.0.1, so that what is sent to the pod IP, as the kubelet sends its requests,
   * never reaches a server bound to 127.0.0.1 only. Unisolated, the pod shares the node's network, as with
   * {@code hostNetwork}, and its IP is 127.0.0.1.
   */
  final class PodNetwork implements AutoCloseable {
    private final Process holder;
    private final long namespacePid;
    private final String ip;

    private PodNetwork(Process holder, long namespacePid, String ip) {
      this.holder = holder;
      this.namespacePid = namespacePid;
      this.ip = ip;
    }

    /** The pod's IP, which its status shows and lifecycle requests go to. */
    String ip() {
      return ip;
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

  /** @param ip the pod's IP, used when isolated */
  PodNetwork openNetwork(String ip) throws IOException {
    if (!isolated) {
      return new PodNetwork(null, -1, LOOPBACK);
    }
    // bubblewrap arms --die-with-parent after it starts, too late if the JVM died first; the wrapper checks.
    Process holder = start(Launcher.dyingWithJvm(List.of("bwrap", "--ro-bind", "/", "/", "--dev", "/dev",
        "--unshare-net", "--unshare-pid", "--die-with-parent", "sleep", "infinity")), Map.of(), null);
    String own = Files.readSymbolicLink(Path.of("/proc/self/ns/net")).toString();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (System.nanoTime() < deadline && holder.isAlive()) {
      Optional<ProcessHandle> inside = holder.descendants().filter(p -> !own.equals(netNamespace(p.pid())))
          .findFirst();
      if (inside.isPresent()) {
        // Without iproute2 the pod keeps 127.0.0.1, as before pod IPs; the run says so.
        boolean withIp = !onPath("ip").isEmpty();
        PodNetwork network = new PodNetwork(holder, inside.get().pid(), withIp ? ip : LOOPBACK);
        try {
          if (withIp) {
            addAddress(network);
          }
        } catch (IOException e) {
          network.close();
          throw e;
        }
        return network;
      }
      sleepBriefly();
    }
    holder.destroyForcibly();
    throw new IOException("bubblewrap did not create the pod's network namespace");
  }

  // Not root: the namespace belongs to bubblewrap's user namespace, where its owner may change it.
  private void addAddress(PodNetwork network) throws IOException {
    List<String> command = new ArrayList<>(List.of("nsenter", "--net=/proc/" + network.namespacePid + "/ns/net"));
    if (!ROOT) {
      command.addAll(List.of("--user=/proc/" + network.namespacePid + "/ns/user", "--preserve-credentials"));
    }
    command.addAll(List.of("--", "ip", "address", "add", network.ip + "/32", "dev", "lo"));
    Process add = start(command, Map.of(), null);
    String said;
    try {
      boolean done = add.waitFor(10, TimeUnit.SECONDS);
      said = new String(add.getInputStream().readNBytes(4096), StandardCharsets.UTF_8).strip();
      if (done && add.exitValue() == 0) {
        return;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      said = "interrupted";
    } finally {
      add.destroyForcibly();
    }
    throw new IOException("cannot give the pod its IP " + network.ip + " (ip address add, from iproute2): " + said);
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

  /**
   * A container's process: the outer process Java started, and the container's own main process. Its end, as the
   * node sees it, is {@link #gone()}: the main process has exited and nothing it left behind runs any more.
   */
  final class ContainerProcess {
    final Process process;
    /**
     * The container's PID 1 (isolated) or the process group leader (plain); null until bubblewrap has forked it.
     * Set by whichever thread finds it first, always to the same process.
     */
    private volatile ProcessHandle main;
    private final CompletableFuture<Integer> gone;

    private ContainerProcess(Process process) {
      this.process = process;
      this.main = isolated ? null : process.toHandle();
      // Off the common pool: killing a group starts a process and waits for the group to go.
      gone = process.onExit().thenApplyAsync(p -> {
        try {
          reap();
        } catch (RuntimeException e) {
          // The end is still told: a pod must not wait for a container that has exited.
          LOG.log(Level.WARNING, "cannot kill what container process " + p.pid() + " left", e);
        }
        return p.exitValue();
      }, REAPER);
    }

    /** The container's PID 1 (isolated) or the process group leader (plain), once it exists. */
    Optional<ProcessHandle> main() {
      if (main == null) {
        main = process.children().findFirst().orElse(null);
      }
      return Optional.ofNullable(main);
    }

    /**
     * Completes with the main process's exit code once it has exited and what it left is gone: a process group is
     * killed (plain); a PID namespace empties before its PID 1 has ended, and bubblewrap ends only after it.
     */
    CompletableFuture<Integer> gone() {
      return gone;
    }

    /** Sends the container's stop signal to its main process. */
    void terminate(StopSignal signal) {
      Optional<ProcessHandle> target = main();
      if (signal.number() == StopSignal.SIGTERM.number() || target.isEmpty()) {
        target.ifPresent(ProcessHandle::destroy);
        return;
      }
      try {
        new ProcessBuilder("bash", "-c", "kill -n \"$1\" -- \"$2\" 2>/dev/null", "bash",
            String.valueOf(signal.number()), String.valueOf(target.get().pid())).start().waitFor(5, TimeUnit.SECONDS);
      } catch (IOException e) {
        LOG.log(Level.WARNING, "cannot send " + signal.name() + " to container process " + target.get().pid(), e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    // Plain: the group takes the container's children along. Isolated: only if bubblewrap went first (killed
    // before it had forked, or by the agent's last sweep) may its PID 1 still be there, and it is waited for.
    private void reap() {
      if (!isolated) {
        killGroup(process.pid());
        return;
      }
      ProcessHandle pid1 = main;
      if (pid1 != null && pid1.isAlive()) {
        pid1.destroyForcibly();
        pid1.onExit().join();
      }
    }

    /**
     * SIGKILL to everything in the container: its PID 1, whose end takes its PID namespace along before bubblewrap
     * sees it (bubblewrap itself only while it has no child yet, which then dies with it); or its process group.
     */
    void kill() {
      if (isolated) {
        main().ifPresentOrElse(ProcessHandle::destroyForcibly, process::destroyForcibly);
      } else {
        if (process.isAlive()) {
          killGroup(process.pid());
        }
        process.destroyForcibly();
      }
    }
  }

  /** A directory bound into a container at {@code target}. */
  record Mount(Path source, String target, boolean readOnly) {}

  /**
   * Who a container's processes are inside it, as {@code securityContext.runAsUser} and {@code runAsGroup}
   * say (root when they say nothing); outside, always the sandbox's unprivileged uid.
   */
  record Identity(long uid, long gid) {
  }

  /**
   * bubblewrap arguments that rebuild a root directory entry by entry on bubblewrap's own tmpfs root:
   * directories and files bound read-only, symbolic links recreated; {@code /dev}, {@code /proc} and
   * {@code /tmp} are the sandbox's own. An image's root gives all its entries; the host's only
   * {@link #MINIMAL_ROOT} and {@code /etc} without {@link #ETC_HIDDEN}.
   */
  private static List<String> rootEntries(Path root, boolean image, Set<String> names) throws IOException {
    List<String> args = new ArrayList<>();
    List<Path> entries;
    if (image) {
      try (var list = Files.list(root)) {
        entries = list.sorted().toList();
      }
    } else {
      entries = MINIMAL_ROOT.stream().map(Path::of).filter(p -> Files.exists(p, LinkOption.NOFOLLOW_LINKS)).toList();
    }
    for (Path entry : entries) {
      String name = "/" + entry.getFileName();
      if (!List.of("/dev", "/proc", "/tmp").contains(name)) {
        bindEntry(entry, name, args);
        names.add(name);
      }
    }
    if (!image) {
      args.addAll(List.of("--dir", "/etc"));
      names.add("/etc");
      try (var list = Files.list(Path.of("/etc"))) {
        for (Path entry : list.sorted().toList()) {
          if (!ETC_HIDDEN.contains(entry.getFileName().toString())) {
            bindEntry(entry, "/etc/" + entry.getFileName(), args);
          }
        }
      }
    }
    return args;
  }

  private static void bindEntry(Path entry, String name, List<String> args) throws IOException {
    if (Files.isSymbolicLink(entry)) {
      args.addAll(List.of("--symlink", Files.readSymbolicLink(entry).toString(), name));
    } else if (Files.isDirectory(entry) || Files.isRegularFile(entry)) {
      args.addAll(List.of("--ro-bind", entry.toString(), name));
    }
  }

  /**
   * Starts a container's command; {@code root}, when set, is an unpacked image filesystem mounted read-only as
   * the container's root instead of the minimal one from the host's files (isolated mode only). The root's
   * top-level entries are bound one by one onto a tmpfs that is made read-only last, so that a volume can be
   * mounted at a new top-level path (such as {@code /data}) as a kubelet would; a target inside one of those
   * entries (say {@code /var/lib/x}) must exist already, since the entry itself is read-only.
   */
  ContainerProcess startContainer(PodNetwork network, String hostname, List<String> argv, Map<String, String> env,
      String workingDir, List<Mount> mounts, Path root, List<String> hookWords, Long memoryLimit, Identity identity)
      throws IOException {
    if (root != null && !isolated) {
      throw new IOException("an image root needs bubblewrap, which is missing or cannot create namespaces here");
    }
    List<String> command = new ArrayList<>();
    Path args = null;
    if (isolated) {
      args = environmentArgs(env);
      command.addAll(withFds(args, memoryGroup(memoryLimit)));
    }
    command.add("setsid");
    if (isolated) {
      command.addAll(network.enter());
      command.addAll(asSandboxUser());
      command.addAll(List.of("prlimit", "--nproc=" + processLimit(), "--nofile=" + MAX_OPEN_FILES, "--"));
      command.addAll(List.of("bwrap", "--unshare-user", "--uid", String.valueOf(identity.uid()), "--gid",
          String.valueOf(identity.gid()), "--unshare-pid", "--unshare-ipc",
          "--unshare-uts", "--unshare-cgroup-try", "--hostname", hostname, "--as-pid-1", "--die-with-parent",
          "--new-session", "--cap-drop", "ALL", "--args", "4"));
      if (filter != null) {
        command.addAll(List.of("--seccomp", "3"));
      }
      Set<String> topLevel = new HashSet<>();
      command.addAll(rootEntries(root == null ? Path.of("/") : root, root != null, topLevel));
      command.addAll(List.of("--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"));
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
        command.addAll(mountArgs(mount, root, topLevel));
      }
      command.addAll(List.of("--remount-ro", "/"));
      // An image without WORKDIR starts in /; the host's current directory means nothing in a container.
      command.addAll(List.of("--chdir", workingDir != null ? workingDir : "/"));
      command.add("--");
    }
    command.addAll(argv);
    ContainerProcess container = new ContainerProcess(start(command, isolated ? Map.of() : env,
        isolated ? null : workingDir));
    if (isolated) {
      // Known from its start, PID 1 is still found should bubblewrap be killed later.
      container.main = awaitExec(container.process).orElse(null);
      Files.deleteIfExists(args);
    }
    return container;
  }

  private static List<String> mountArgs(Mount mount, Path root, Set<String> topLevel) throws IOException {
    Path target = Path.of(mount.target()).normalize();
    if (target.getNameCount() == 0) {
      throw new IOException("cannot mount a volume at " + mount.target());
    }
    String top = "/" + target.getName(0);
    boolean inEntry = target.getNameCount() > 1 && topLevel.contains(top) && !target.startsWith("/tmp/");
    Path onRoot = (root == null ? Path.of("/") : root).resolve(target.toString().substring(1));
    if (inEntry && !Files.isDirectory(onRoot)) {
      throw new IOException("cannot mount a volume at " + mount.target() + ": " + top + " comes read-only from the "
          + "container's root and has no directory " + target.subpath(1, target.getNameCount())
          + "; mount it at a new top-level directory, or under /tmp");
    }
    return List.of(mount.readOnly() ? "--ro-bind" : "--bind", mount.source().toString(), target.toString());
  }

  /**
   * The process limit of the sandbox's user (threads count too): {@link #MAX_PROCESSES} for the uid of its own
   * the agent gives it as root; otherwise what the agent's user runs already plus that many, since the limit
   * counts all of a uid's processes.
   */
  private static int processLimit() {
    return ROOT ? MAX_PROCESSES : threadsOf(uid()) + MAX_PROCESSES;
  }

  private static int threadsOf(int uid) {
    int threads = 0;
    try (var processes = Files.list(Path.of("/proc"))) {
      for (Path p : processes.filter(x -> x.getFileName().toString().matches("\\d+")).toList()) {
        try {
          List<String> status = Files.readAllLines(p.resolve("status"));
          boolean mine = status.stream().anyMatch(l -> l.startsWith("Uid:") && l.split("\\s+")[1].equals(
              String.valueOf(uid)));
          if (mine) {
            threads += status.stream().filter(l -> l.startsWith("Threads:"))
                .mapToInt(l -> Integer.parseInt(l.split("\\s+")[1])).sum();
          }
        } catch (IOException | RuntimeException e) {
          // Gone meanwhile.
        }
      }
    } catch (IOException e) {
      return 0;
    }
    return threads;
  }

  /**
   * The regular files under the host's {@code /tmp} that these words name: the container's {@code /tmp} is its
   * own, so a command would not find them there otherwise. A path may be a whole word, an entry of a
   * {@code :}-separated list such as a class path, follow {@code =}, or stand in a shell script between spaces,
   * quotes and operators. Folders are not bound: one could hold a socket of the host's, which a read-only
   * mount does not stop a connect to; nor are sockets, pipes or devices.
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
        if (path.startsWith(tmp) && Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
          named.add(path);
        }
      }
    }
    return List.copyOf(named);
  }

  // Started means the command runs in its namespaces, as when a runtime's StartContainer returns: until
  // bubblewrap's child has executed it, hooks would enter half-built namespaces.
  // Returns bubblewrap's child, the container's PID 1, if there is one by then.
  private static Optional<ProcessHandle> awaitExec(Process outer) {
    // Not the outer process's own executable: it may still be setsid or nsenter, not yet bubblewrap.
    String bwrap = Bubblewrap.EXECUTABLE;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (System.nanoTime() < deadline && outer.isAlive()) {
      Optional<ProcessHandle> child = outer.children().findFirst();
      if (child.isPresent() && !bwrap.equals(executable(child.get().pid()))) {
        return child;
      }
      sleepBriefly();
    }
    return outer.children().findFirst();
  }

  /** The real path of a tool on the node's PATH, or "" when it has none. */
  private static String onPath(String tool) {
    for (String dir : PATH.split(":")) {
      Path candidate = Path.of(dir, tool);
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

  /**
   * An exec hook. Isolated: it enters the container's mount, PID, network, IPC, UTS and cgroup namespaces and
   * becomes the container's host uid, so that inside it is the container's user, with no capabilities, no new
   * privileges and the seccomp filter (loaded by a bubblewrap of its own, which also sets the environment: the
   * container's, less {@link #UNSAFE_FOR_HOOKS}). Plain: a process group next to the container.
   */
  Process startExec(ContainerProcess container, List<String> argv, Map<String, String> env) throws IOException {
    if (!isolated) {
      List<String> command = new ArrayList<>(List.of("setsid"));
      command.addAll(argv);
      return start(command, env, null);
    }
    long pid = container.main().orElseThrow(() -> new IOException("container has no process")).pid();
    Map<String, String> safe = new LinkedHashMap<>(env);
    UNSAFE_FOR_HOOKS.forEach(safe::remove);
    Path args = environmentArgs(safe);
    List<String> command = new ArrayList<>(withFds(args, null));
    command.addAll(List.of("bwrap", "--bind", "/", "/", "--die-with-parent", "--args", "4"));
    if (filter != null) {
      command.addAll(List.of("--seccomp", "3"));
    }
    command.addAll(List.of("--", "setpriv", "--nnp", "--", "nsenter", "--target", String.valueOf(pid)));
    if (ROOT) {
      command.addAll(List.of("--mount", "--pid", "--net", "--ipc", "--uts", "--cgroup", "--wd",
          "--setuid=" + SANDBOX_UID, "--setgid=" + SANDBOX_UID));
    } else {
      // Not root: only as the owner of the container's user namespace may the hook enter the others.
      command.addAll(List.of("--user", "--preserve-credentials", "--mount", "--pid", "--net", "--ipc", "--uts",
          "--cgroup", "--wd"));
    }
    command.add("--");
    command.addAll(argv);
    Process process = start(command, Map.of(), null);
    awaitStarted(process);
    Files.deleteIfExists(args);
    return process;
  }

  /** An HTTP GET sent from inside the pod's network namespace as the sandbox's user (plain: from the host). */
  Process startHttpGet(PodNetwork network, String host, int port, String request) throws IOException {
    List<String> command = new ArrayList<>(network.enter());
    command.addAll(asSandboxUser());
    command.addAll(List.of("bash", "-p", "-c", HTTP_GET, "bash", host, String.valueOf(port), request));
    return start(command, Map.of(), null);
  }

  /** A TCP connection from inside the pod's network namespace as the sandbox's user (see {@link #DIAL}). */
  Process startDial(PodNetwork network, String host, int port, boolean relay) throws IOException {
    List<String> command = new ArrayList<>(network.enter());
    command.addAll(asSandboxUser());
    command.addAll(List.of("bash", "-p", "-c", DIAL, "bash", host, String.valueOf(port), relay ? "relay" : ""));
    return start(command, Map.of(), null);
  }

  // The argument file is read when bubblewrap starts; until then it must stay.
  private static void awaitStarted(Process outer) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (System.nanoTime() < deadline && outer.isAlive() && outer.children().findFirst().isEmpty()) {
      sleepBriefly();
    }
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
    // From the launcher's thread: bubblewrap's --die-with-parent is tied to the thread that starts it.
    return Launcher.start(builder);
  }

  /**
   * SIGKILL to every process that carries this sandbox's marker in its environment, until none is left: what
   * left its process group or session, or was re-parented after a double fork, is found by it all the same.
   * (A process can clear its environment; inside bubblewrap its PID namespace takes it along anyway.)
   */
  void killMarked() {
    String wanted = MARKER + "=" + marker;
    for (int round = 0; round < 20; round++) {
      List<ProcessHandle> marked = ProcessHandle.allProcesses().filter(p -> p.pid() != ProcessHandle.current().pid())
          .filter(p -> environ(p.pid()).contains(wanted)).toList();
      if (marked.isEmpty()) {
        return;
      }
      marked.forEach(ProcessHandle::destroyForcibly);
      sleepBriefly();
    }
  }

  private static List<String> environ(long pid) {
    try {
      return List.of(new String(Files.readAllBytes(Path.of("/proc/" + pid + "/environ")),
          StandardCharsets.UTF_8).split("\0"));
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
  }

  /**
   * Without PID namespaces a container's children may outlive its main process; the group takes them all.
   * Returns once none of them runs any more (a zombie has ended: only its parent's wait is left), or after ten
   * seconds should one never go.
   */
  static void killGroup(long pgid) {
    try {
      new ProcessBuilder("bash", "-c", "kill -KILL -- -\"$1\" 2>/dev/null", "bash", String.valueOf(pgid))
          .start().waitFor(5, TimeUnit.SECONDS);
    } catch (IOException e) {
      ProcessHandle.of(pgid).ifPresent(ProcessHandle::destroyForcibly);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    for (List<ProcessHandle> left = groupMembers(pgid); !left.isEmpty() && System.nanoTime() < deadline;
        left = groupMembers(pgid)) {
      left.forEach(ProcessHandle::destroyForcibly);
      sleepBriefly();
    }
  }

  /** The processes of a process group that have not ended, from {@code /proc/PID/stat}. */
  private static List<ProcessHandle> groupMembers(long pgid) {
    List<ProcessHandle> members = new ArrayList<>();
    try (var processes = Files.list(Path.of("/proc"))) {
      for (Path p : processes.filter(x -> x.getFileName().toString().matches("\\d+")).toList()) {
        try {
          String stat = Files.readString(p.resolve("stat"));
          // After the command's name, which may hold spaces and parentheses: state, parent, group.
          String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ", 4);
          if (!fields[0].equals("Z") && Long.parseLong(fields[2]) == pgid) {
            ProcessHandle.of(Long.parseLong(p.getFileName().toString())).ifPresent(members::add);
          }
        } catch (IOException | RuntimeException e) {
          // Gone meanwhile.
        }
      }
    } catch (IOException e) {
      return List.of();
    }
    return members;
  }

  private static void sleepBriefly() {
    try {
      Thread.sleep(5);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
