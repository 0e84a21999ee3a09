package io.hooklens.rules.lifecycle;

import io.hooklens.core.model.Handler;
import io.hooklens.core.model.HookDurations;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YScalar;
import io.hooklens.core.yaml.YSeq;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** The {@code exec.command} of a lifecycle handler as a list of scalars, and what its program is. */
record ExecCommand(YSeq node, List<YScalar> items) {
  /** Programs that interpret their arguments as shell code; Windows shells included. */
  private static final Set<String> SHELLS = Set.of("sh", "bash", "ash", "dash", "zsh", "ksh", "mksh", "cmd",
      "powershell", "pwsh");

  /** Programs that hand a string argument to a shell of their own. */
  private static final Set<String> SHELL_RUNNERS = Set.of("su", "runuser", "ssh", "watch", "flock", "script");

  /** The exec command of a handler when it is a list of scalars, else null. */
  static ExecCommand of(Handler h) {
    YMap exec = h.map() == null ? null : h.map().map("exec");
    YSeq seq = exec == null ? null : exec.seq("command");
    if (seq == null) {
      return null;
    }
    List<YScalar> items = new ArrayList<>(seq.size());
    for (YNode n : seq.items()) {
      if (!(n instanceof YScalar s) || s.type() == YScalar.Type.NULL) {
        return null;
      }
      items.add(s);
    }
    return new ExecCommand(seq, items);
  }

  List<String> argv() {
    return items.stream().map(YScalar::value).toList();
  }

  boolean isEmpty() {
    return items.isEmpty();
  }

  /** The program's base name, lower case, without {@code .exe}. */
  static String name(String path) {
    String b = HookDurations.basename(path);
    return b.endsWith(".exe") ? b.substring(0, b.length() - 4) : b;
  }

  static boolean isShell(String path) {
    return SHELLS.contains(name(path));
  }

  /**
   * Whether some shell interprets the arguments: a shell anywhere in the list covers wrappers such as
   * {@code busybox sh}, {@code env bash} or {@code timeout 5 sh -c}.
   */
  boolean runsShell() {
    List<String> argv = argv();
    return argv.stream().anyMatch(ExecCommand::isShell) || SHELL_RUNNERS.contains(program());
  }

  /** The program that runs, looking through {@code busybox} and {@code env [NAME=value...]}. */
  String program() {
    List<String> argv = argv();
    int i = 0;
    while (i < argv.size()) {
      String n = name(argv.get(i));
      if (n.equals("busybox")) {
        i++;
      } else if (n.equals("env")) {
        i++;
        while (i < argv.size() && (argv.get(i).startsWith("-") || argv.get(i).contains("="))) {
          i++;
        }
      } else {
        return n;
      }
    }
    return "";
  }
}
