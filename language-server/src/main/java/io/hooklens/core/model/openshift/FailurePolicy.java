package io.hooklens.core.model.openshift;

import java.util.Arrays;
import java.util.List;

/** A DeploymentConfig hook's {@code failurePolicy}: what the deployer does when the hook fails. */
public enum FailurePolicy {
  /** The rollout fails. */
  ABORT("Abort"),
  /** The hook pod runs again until it succeeds or the rollout's deadline passes. */
  RETRY("Retry"),
  /** The failure is recorded and the rollout goes on. */
  IGNORE("Ignore");

  /** The values the API accepts, exactly as written. */
  public static final List<String> VALUES = Arrays.stream(values()).map(FailurePolicy::value).toList();

  private final String value;

  FailurePolicy(String value) {
    this.value = value;
  }

  /** The value as the API spells it. */
  public String value() {
    return value;
  }

  /** The policy a value names, compared exactly as the API does; null for any other value. */
  public static FailurePolicy parse(String value) {
    for (FailurePolicy p : values()) {
      if (p.value.equals(value)) {
        return p;
      }
    }
    return null;
  }
}
