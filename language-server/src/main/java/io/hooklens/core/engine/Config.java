package io.hooklens.core.engine;

import java.util.List;
import java.util.Map;

/**
 * Settings for a lint run, from {@code .hooklens.yaml}, flags or editor settings.
 *
 * @param rules per-rule settings keyed by id, name or pattern as written
 * @param exclude path globs that are not linted, relative to the configuration file
 */
public record Config(Targets targets, Map<String, RuleSetting> rules, List<String> exclude) {
  public static final Config DEFAULT = new Config(Targets.DEFAULT, Map.of(), List.of());

  /**
   * One rule's setting.
   *
   * @param severity replaces the rule's severity; null keeps it
   * @param off the rule does not run
   * @param params raw parameter values, bound and checked when the configuration is read
   */
  public record RuleSetting(Severity severity, boolean off, Map<String, Object> params) {}

  public Config withTargets(Targets t) {
    return new Config(t, rules, exclude);
  }
}
