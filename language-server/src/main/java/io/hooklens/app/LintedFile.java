package io.hooklens.app;

import io.hooklens.core.engine.Finding;
import io.hooklens.core.engine.LintResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * What linting found in one file.
 *
 * @param displayName the file's path as the user knows it (the path as given, joined)
 * @param valuesSets for a finding of a rendered chart, the labels of the values sets that produce it; empty for a
 *     file linted on its own
 * @param baselined how many of its findings a baseline recorded and held back; empty when no baseline applies
 */
public record LintedFile(String displayName, LintResult result, Map<Finding, List<String>> valuesSets,
    OptionalInt baselined) {
  public LintedFile(String displayName, LintResult result) {
    this(displayName, result, Map.of());
  }

  public LintedFile(String displayName, LintResult result, Map<Finding, List<String>> valuesSets) {
    this(displayName, result, valuesSets, OptionalInt.empty());
  }

  public Path path() {
    return Path.of(displayName).toAbsolutePath().normalize();
  }
}
