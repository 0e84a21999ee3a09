package io.hooklens.run.node;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The signal that asks a container to stop, as a Linux container runtime reads it from an image's
 * {@code StopSignal}: a name with or without {@code SIG} ({@code SIGQUIT}, {@code quit}), a number ({@code 3}), or a
 * real-time signal ({@code SIGRTMIN+3}, {@code SIGRTMAX-1}) — moby/sys signal.ParseSignal, which containerd uses.
 */
public record StopSignal(String name, int number) {
  public static final StopSignal SIGTERM = new StopSignal("SIGTERM", 15);

  // Linux numbering (x86-64 and arm64 alike); null where the number has no name of its own.
  private static final List<String> NAMES = List.of("", "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE",
      "KILL", "USR1", "SEGV", "USR2", "PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU",
      "URG", "XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "IO", "PWR", "SYS");
  // glibc keeps the first two real-time signals for itself, so SIGRTMIN is 34 to every program.
  private static final int RTMIN = 34;
  private static final int RTMAX = 64;

  /** The signal {@code text} names, or empty when it names none. */
  public static Optional<StopSignal> parse(String text) {
    if (text == null || text.isBlank()) {
      return Optional.empty();
    }
    String s = text.strip().toUpperCase(Locale.ROOT);
    if (s.chars().allMatch(Character::isDigit)) {
      return s.length() > 2 ? Optional.empty() : numbered(Integer.parseInt(s));
    }
    String bare = s.startsWith("SIG") ? s.substring(3) : s;
    int index = NAMES.indexOf(switch (bare) {
      case "IOT" -> "ABRT";
      case "CLD" -> "CHLD";
      case "POLL" -> "IO";
      default -> bare;
    });
    if (index > 0) {
      return Optional.of(new StopSignal("SIG" + bare, index));
    }
    return realTime(bare).map(n -> new StopSignal("SIG" + bare, n));
  }

  private static Optional<StopSignal> numbered(int n) {
    if (n > 0 && n < NAMES.size()) {
      return Optional.of(new StopSignal("SIG" + NAMES.get(n), n));
    }
    if (n >= RTMIN && n <= RTMAX) {
      return Optional.of(new StopSignal(n - RTMIN <= (RTMAX - RTMIN) / 2 ? "SIGRTMIN+" + (n - RTMIN)
          : "SIGRTMAX-" + (RTMAX - n), n));
    }
    return Optional.empty();
  }

  private static Optional<Integer> realTime(String bare) {
    for (String base : List.of("RTMIN", "RTMAX")) {
      if (!bare.startsWith(base)) {
        continue;
      }
      String offset = bare.substring(base.length());
      int n;
      if (offset.isEmpty()) {
        n = base.equals("RTMIN") ? RTMIN : RTMAX;
      } else if (offset.length() > 1 && offset.length() <= 3 && offset.charAt(0) == (base.equals("RTMIN") ? '+' : '-')
          && offset.substring(1).chars().allMatch(Character::isDigit)) {
        int by = Integer.parseInt(offset.substring(1));
        n = base.equals("RTMIN") ? RTMIN + by : RTMAX - by;
      } else {
        return Optional.empty();
      }
      return n >= RTMIN && n <= RTMAX ? Optional.of(n) : Optional.empty();
    }
    return Optional.empty();
  }
}
