package io.hooklens.run;

/**
 * Which hooks of a manifest to run.
 *
 * @param hook {@code postStart}, {@code preStop} or {@code all}
 * @param container only this container of each pod (others are left out), or null for all
 * @param resource only this object, {@code Kind/name} (kind case-insensitive), or null for every object with hooks
 * @param document only the object in this YAML document (0-based), or -1 for any
 * @param graceSeconds a grace period that replaces the pod's own, or null
 */
public record Selection(String hook, String container, String resource, int document, Long graceSeconds) {
  public static final String ALL = "all";

  public static Selection all() {
    return new Selection(ALL, null, null, -1, null);
  }

  boolean wants(String hookField) {
    return ALL.equals(hook) || hook.equals(hookField);
  }
}
