package io.hooklens.core.model.helm;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/** A Helm 3 and 4 hook event, in the order of a release's life: install, delete, upgrade, rollback, test. */
public enum HelmEvent {
  PRE_INSTALL("pre-install"),
  POST_INSTALL("post-install"),
  PRE_DELETE("pre-delete"),
  POST_DELETE("post-delete"),
  PRE_UPGRADE("pre-upgrade"),
  POST_UPGRADE("post-upgrade"),
  PRE_ROLLBACK("pre-rollback"),
  POST_ROLLBACK("post-rollback"),
  TEST("test");

  /** The deprecated spelling Helm reads as {@link #TEST}. */
  public static final String TEST_SUCCESS = "test-success";

  /** Every event as annotations write it, in declaration order. */
  public static final List<String> NAMES = Arrays.stream(values()).map(HelmEvent::annotation).toList();

  /** What {@code helm.sh/hook} accepts: {@link #NAMES} and {@link #TEST_SUCCESS}. */
  public static final List<String> SPELLINGS = Stream.concat(NAMES.stream(), Stream.of(TEST_SUCCESS)).toList();

  private final String annotation;

  HelmEvent(String annotation) {
    this.annotation = annotation;
  }

  /** The event as {@code helm.sh/hook} writes it. */
  public String annotation() {
    return annotation;
  }

  /** The event an item names once Helm normalised it, {@code test-success} as {@link #TEST}; null when unknown. */
  public static HelmEvent parse(String normalized) {
    if (TEST_SUCCESS.equals(normalized)) {
      return TEST;
    }
    for (HelmEvent e : values()) {
      if (e.annotation.equals(normalized)) {
        return e;
      }
    }
    return null;
  }
}
