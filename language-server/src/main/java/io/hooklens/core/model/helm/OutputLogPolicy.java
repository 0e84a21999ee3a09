package io.hooklens.core.model.helm;

import java.util.Arrays;
import java.util.List;

/** A {@code helm.sh/hook-output-log-policy} item Helm 3.18+ and 4 know: when Helm prints an awaited hook's logs. */
public enum OutputLogPolicy {
  /** The logs are printed once the hook succeeded. */
  HOOK_SUCCEEDED("hook-succeeded"),
  /** The logs are printed if the hook failed. */
  HOOK_FAILED("hook-failed");

  /** The annotation spellings, in declaration order. */
  public static final List<String> SPELLINGS = Arrays.stream(values()).map(OutputLogPolicy::annotation).toList();

  private final String annotation;

  OutputLogPolicy(String annotation) {
    this.annotation = annotation;
  }

  /** The item as the annotation writes it. */
  public String annotation() {
    return annotation;
  }

  /** The policy an item names once Helm normalised it (trimmed, lower-cased), or null when Helm knows none. */
  public static OutputLogPolicy parse(String normalized) {
    for (OutputLogPolicy p : values()) {
      if (p.annotation.equals(normalized)) {
        return p;
      }
    }
    return null;
  }
}
