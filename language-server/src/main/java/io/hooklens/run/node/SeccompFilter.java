package io.hooklens.run.node;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The seccomp filter every container and hook runs under: a classic BPF program, as bubblewrap's
 * {@code --seccomp FD} takes it, that answers EPERM to the system calls a hook has no business making and
 * that have been the way out of containers, and lets everything else through. The list follows the one
 * container runtimes use by default (Docker's and Podman's profiles): mounting and changing the root (the
 * classic escape, also through the new mount API), tracing other processes, loading kernels and modules, the
 * kernel keyring (shared by every process of a uid, and not namespaced), opening files by handle (the
 * "shocker" escape), new namespaces (a new user namespace would give the hook capabilities again, though only
 * over what it already owns), BPF and perf events, and switching the machine's swap, accounting or power.
 * Syscalls of another ABI (i386 through {@code int 0x80}, x32) are refused as a whole, since their numbers
 * differ and would slip past the list. Only x86-64 has a table; elsewhere {@link #forThisMachine()} is empty
 * and the sandbox says that no filter applies.
 */
final class SeccompFilter {
  private static final int AUDIT_ARCH_X86_64 = 0xC000003E;
  private static final int X32_SYSCALL_BIT = 0x40000000;

  // Classic BPF opcodes (linux/filter.h) and seccomp's return values (linux/seccomp.h).
  private static final short LD_W_ABS = 0x20;
  private static final short JEQ_K = 0x15;
  private static final short JGE_K = 0x35;
  private static final short JSET_K = 0x45;
  private static final short RET_K = 0x06;
  private static final int RET_ALLOW = 0x7fff0000;
  private static final int RET_ERRNO = 0x00050000;
  private static final int EPERM = 1;
  private static final int ENOSYS = 38;
  // struct seccomp_data: nr at 0, arch at 4, args[0] at 16 (its low half on a little-endian machine).
  private static final int NR = 0;
  private static final int ARCH = 4;
  private static final int ARG0 = 16;

  private static final int CLONE = 56;
  private static final int CLONE3 = 435;
  /** CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET: a clone that makes any namespace. */
  private static final int CLONE_NAMESPACES = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000
      | 0x20000000 | 0x40000000;

  /** x86-64 numbers (arch/x86/entry/syscalls/syscall_64.tbl) of the refused calls, with their names. */
  static final List<Syscall> REFUSED = List.of(
      new Syscall("ptrace", 101), new Syscall("syslog", 103), new Syscall("vhangup", 153),
      new Syscall("pivot_root", 155), new Syscall("acct", 163), new Syscall("mount", 165),
      new Syscall("umount2", 166), new Syscall("swapon", 167), new Syscall("swapoff", 168),
      new Syscall("reboot", 169), new Syscall("iopl", 172), new Syscall("ioperm", 173),
      new Syscall("init_module", 175), new Syscall("delete_module", 176), new Syscall("quotactl", 179),
      new Syscall("lookup_dcookie", 212), new Syscall("kexec_load", 246), new Syscall("add_key", 248),
      new Syscall("request_key", 249), new Syscall("keyctl", 250), new Syscall("unshare", 272),
      new Syscall("perf_event_open", 298), new Syscall("name_to_handle_at", 303),
      new Syscall("open_by_handle_at", 304), new Syscall("process_vm_readv", 310),
      new Syscall("process_vm_writev", 311), new Syscall("finit_module", 313), new Syscall("kexec_file_load", 320),
      new Syscall("bpf", 321), new Syscall("userfaultfd", 323), new Syscall("open_tree", 428),
      new Syscall("move_mount", 429), new Syscall("fsopen", 430), new Syscall("fsconfig", 431),
      new Syscall("fsmount", 432), new Syscall("fspick", 433), new Syscall("mount_setattr", 442));

  record Syscall(String name, int number) {}

  private record Insn(short code, int jt, int jf, int k) {}

  private SeccompFilter() {}

  /** The filter for this machine's architecture, or an empty array where there is none. */
  static byte[] forThisMachine() {
    String arch = System.getProperty("os.arch");
    return "amd64".equals(arch) || "x86_64".equals(arch) ? x86_64() : new byte[0];
  }

  /**
   * The program. Jumps are relative, counted from the next instruction; the three returns sit at the end:
   * allow, EPERM, ENOSYS.
   */
  static byte[] x86_64() {
    List<Insn> body = new ArrayList<>();
    body.add(new Insn(LD_W_ABS, 0, 0, ARCH));
    body.add(new Insn(JEQ_K, 0, -2, AUDIT_ARCH_X86_64)); // a foreign ABI: EPERM
    body.add(new Insn(LD_W_ABS, 0, 0, NR));
    body.add(new Insn(JGE_K, -2, 0, X32_SYSCALL_BIT));
    for (Syscall s : REFUSED) {
      body.add(new Insn(JEQ_K, -2, 0, s.number()));
    }
    // clone3 passes its flags in memory, out of a filter's reach: ENOSYS makes the C library use clone.
    body.add(new Insn(JEQ_K, -3, 0, CLONE3));
    body.add(new Insn(JEQ_K, 0, -1, CLONE));
    body.add(new Insn(LD_W_ABS, 0, 0, ARG0));
    body.add(new Insn(JSET_K, -2, -1, CLONE_NAMESPACES));
    // -1: allow, -2: EPERM, -3: ENOSYS, resolved against the returns that follow the body.
    List<Insn> returns = List.of(new Insn(RET_K, 0, 0, RET_ALLOW), new Insn(RET_K, 0, 0, RET_ERRNO | EPERM),
        new Insn(RET_K, 0, 0, RET_ERRNO | ENOSYS));
    ByteBuffer out = ByteBuffer.allocate((body.size() + returns.size()) * 8).order(ByteOrder.nativeOrder());
    for (int i = 0; i < body.size(); i++) {
      Insn insn = body.get(i);
      out.putShort(insn.code()).put(target(insn.jt(), i, body.size())).put(target(insn.jf(), i, body.size()))
          .putInt(insn.k());
    }
    for (Insn r : returns) {
      out.putShort(r.code()).put((byte) 0).put((byte) 0).putInt(r.k());
    }
    return out.array();
  }

  /** A jump offset: 0 is the next instruction; -1, -2, -3 name the returns after the body. */
  private static byte target(int jump, int at, int bodySize) {
    int offset = jump >= 0 ? jump : bodySize + (-jump - 1) - (at + 1);
    if (offset > 255) {
      throw new IllegalStateException("a seccomp jump is too long: " + offset);
    }
    return (byte) offset;
  }
}
