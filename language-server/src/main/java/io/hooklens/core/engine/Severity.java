package io.hooklens.core.engine;

import java.util.Locale;

/** How bad a finding is; ordered from least to most severe. */
public enum Severity {
  INFO, WARNING, ERROR;

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses {@code error}, {@code warning} or {@code info}, any case; null when unknown. */
  public static Severity parse(String s) {
    if (s == null) {
      return null;
    }
    for (Severity v : values()) {
      if (v.label().equalsIgnoreCase(s.trim())) {
        return v;
      }
    }
    return null;
  }
}
