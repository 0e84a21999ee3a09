package io.hooklens.core.engine;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A major.minor version of a target platform, such as Kubernetes 1.34. */
public record Version(int major, int minor) implements Comparable<Version> {
  private static final Pattern FORMAT = Pattern.compile("v?(\\d+)\\.(\\d+)(\\.\\d+)?");

  /** Parses {@code 1.34}, {@code v1.34} or {@code 1.34.2}; null when malformed. */
  public static Version parse(String s) {
    if (s == null) {
      return null;
    }
    Matcher m = FORMAT.matcher(s.trim());
    return m.matches() ? new Version(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))) : null;
  }

  public boolean isBefore(int major, int minor) {
    return compareTo(new Version(major, minor)) < 0;
  }

  @Override
  public int compareTo(Version o) {
    return major != o.major ? Integer.compare(major, o.major) : Integer.compare(minor, o.minor);
  }

  @Override
  public String toString() {
    return major + "." + minor;
  }
}
