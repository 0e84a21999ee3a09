package io.hooklens.core.model;

import java.util.Locale;

/**
 * How long a hook is expected to run: exact for a sleep action or a literal sleep command, a lower
 * bound when part of it cannot be known (a script, an HTTP call), or unbounded.
 */
public record Duration(double seconds, boolean exact, boolean unbounded) {
  public static final Duration ZERO = new Duration(0, true, false);
  public static final Duration UNKNOWN = new Duration(0, false, false);
  public static final Duration UNBOUNDED = new Duration(Double.POSITIVE_INFINITY, false, true);

  public static Duration exactly(double seconds) {
    return new Duration(seconds, true, false);
  }

  public Duration plus(Duration o) {
    if (unbounded || o.unbounded) {
      return UNBOUNDED;
    }
    return new Duration(seconds + o.seconds, exact && o.exact, false);
  }

  /** An inexact copy: the same lower bound. */
  public Duration atLeast() {
    return new Duration(seconds, false, unbounded);
  }

  /** {@code 41s}, {@code at least 5s} or {@code unbounded}, for messages. */
  public String describe() {
    if (unbounded) {
      return "unbounded time";
    }
    return (exact ? "" : "at least ") + format(seconds) + "s";
  }

  /** Seconds without a needless fraction: {@code 5}, {@code 0.5}. */
  public static String format(double seconds) {
    if (seconds == Math.rint(seconds) && seconds < 1e15) {
      return Long.toString((long) seconds);
    }
    return String.format(Locale.ROOT, "%.1f", seconds);
  }
}
