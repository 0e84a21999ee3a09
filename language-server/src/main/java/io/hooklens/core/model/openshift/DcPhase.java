package io.hooklens.core.model.openshift;

import java.util.Arrays;
import java.util.List;

/** When the OpenShift deployer runs a DeploymentConfig hook; its {@code toString} is the key as written. */
public enum DcPhase {
  /** Before any pod of the new version is created. */
  PRE("pre"),
  /** Recreate only: after the old pods are scaled down and before the new ones are created. */
  MID("mid"),
  /** After the new version is rolled out. */
  POST("post");

  /** The phase keys in the order the deployer runs them. */
  public static final List<String> KEYS = Arrays.stream(values()).map(DcPhase::key).toList();

  private final String key;

  DcPhase(String key) {
    this.key = key;
  }

  /** The key of a params block that holds the hook. */
  public String key() {
    return key;
  }

  /** The phase a key names, or null. */
  public static DcPhase parse(String key) {
    for (DcPhase p : values()) {
      if (p.key.equals(key)) {
        return p;
      }
    }
    return null;
  }

  @Override
  public String toString() {
    return key;
  }
}
