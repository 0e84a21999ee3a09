package io.hooklens.core.model.helm;

import java.util.Arrays;
import java.util.List;

/** A {@code helm.sh/hook-delete-policy} item Helm 3 and 4 know: when Helm deletes the object a hook created. */
public enum DeletePolicy {
  /** The previous object of the same identity is deleted before the hook is created; Helm's default. */
  BEFORE_HOOK_CREATION("before-hook-creation"),
  /** The object is deleted once the hook succeeded. */
  HOOK_SUCCEEDED("hook-succeeded"),
  /** The object is deleted if the hook failed. */
  HOOK_FAILED("hook-failed");

  /** What Helm applies when no policy is written. */
  public static final DeletePolicy DEFAULT = BEFORE_HOOK_CREATION;

  /** The annotation spellings, in declaration order. */
  public static final List<String> SPELLINGS = Arrays.stream(values()).map(DeletePolicy::annotation).toList();

  private final String annotation;

  DeletePolicy(String annotation) {
    this.annotation = annotation;
  }

  /** The item as the annotation writes it. */
  public String annotation() {
    return annotation;
  }

  /** The policy an item names once Helm normalised it (trimmed, lower-cased), or null when Helm knows none. */
  public static DeletePolicy parse(String normalized) {
    for (DeletePolicy p : values()) {
      if (p.annotation.equals(normalized)) {
        return p;
      }
    }
    return null;
  }
}
