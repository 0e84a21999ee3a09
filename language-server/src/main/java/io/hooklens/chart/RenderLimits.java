package io.hooklens.chart;

import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How far one rendering of a chart may go before it is stopped: Helm runs in native code, where the JVM's
 * {@code -Xmx} does not reach, and a template can loop or grow without end. Each limit is a system property
 * ({@code -Dhooklens.helm.timeoutSeconds=120}), read on every render.
 *
 * @param timeoutSeconds how long Helm may render one values set
 * @param memoryMiB the render worker's resident memory, its JVM included
 * @param outputMiB the rendered manifests of one values set
 */
record RenderLimits(long timeoutSeconds, long memoryMiB, long outputMiB) {
  static final String TIMEOUT = "hooklens.helm.timeoutSeconds";
  static final String MEMORY = "hooklens.helm.memoryMiB";
  static final String OUTPUT = "hooklens.helm.outputMiB";
  static final RenderLimits DEFAULT = new RenderLimits(60, 1536, 64);
  /** How long the render worker may sit without a render before it is stopped, in seconds. */
  static final String IDLE = "hooklens.helm.idleSeconds";
  static final long DEFAULT_IDLE_SECONDS = 300;

  private static final long MIB = 1024 * 1024;
  /** Bad values already warned about, so that a directory of charts says it once. */
  private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

  /** The limits the system properties set, defaults for those unset or not a positive whole number. */
  static RenderLimits current() {
    return new RenderLimits(property(TIMEOUT, DEFAULT.timeoutSeconds), property(MEMORY, DEFAULT.memoryMiB),
        property(OUTPUT, DEFAULT.outputMiB));
  }

  /**
   * The render worker's idle time limit the system property sets: an editor's server renders now and then and
   * should not hold the worker's memory in between, while a run of {@code lint} renders one chart after another.
   */
  static long idleSeconds() {
    return property(IDLE, DEFAULT_IDLE_SECONDS);
  }

  long timeoutNanos() {
    return timeoutSeconds * 1_000_000_000L;
  }

  long memoryBytes() {
    return memoryMiB * MIB;
  }

  long outputBytes() {
    return outputMiB * MIB;
  }

  /** A size for messages: whole or one-decimal GiB where exact, else MiB. */
  static String size(long mib) {
    if (mib >= 1024 && mib * 10 % 1024 == 0) {
      return (mib % 1024 == 0 ? String.valueOf(mib / 1024) : String.format(Locale.ROOT, "%.1f", mib / 1024.0))
          + " GiB";
    }
    return mib + " MiB";
  }

  private static long property(String name, long fallback) {
    String value = System.getProperty(name);
    if (value == null) {
      return fallback;
    }
    try {
      long n = Long.parseLong(value.strip());
      // The upper bound keeps the byte and nanosecond products far from overflow.
      if (n > 0 && n <= 1_000_000) {
        return n;
      }
    } catch (NumberFormatException e) {
      // Reported below, as a value out of range is.
    }
    if (WARNED.add(name + "=" + value)) {
      System.err.println("hooklens: " + name + " must be a whole number from 1 to 1000000, not \"" + value
          + "\"; using " + fallback);
    }
    return fallback;
  }
}
