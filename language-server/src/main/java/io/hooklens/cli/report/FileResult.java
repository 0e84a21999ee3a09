package io.hooklens.cli.report;

import io.hooklens.core.engine.Finding;
import io.hooklens.core.engine.LintResult;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * The result for one input, under the name the user gave it.
 *
 * @param valuesSets for findings in a chart file, the values sets whose rendering produces them; empty
 *     for plain files
 * @param baselined how many findings a baseline held back; empty when no baseline applies
 */
public record FileResult(String displayName, LintResult result, Map<Finding, List<String>> valuesSets,
    OptionalInt baselined) {
  public FileResult(String displayName, LintResult result) {
    this(displayName, result, Map.of(), OptionalInt.empty());
  }

  /** The values sets that produce a finding; empty outside charts. */
  public List<String> valuesOf(Finding f) {
    return valuesSets.getOrDefault(f, List.of());
  }

  /** The finding's message, followed by the values sets that produce it when it is in a chart. */
  public String messageOf(Finding f) {
    List<String> sets = valuesOf(f);
    return sets.isEmpty() ? f.message() : f.message() + " [values: " + String.join(", ", sets) + "]";
  }
}
