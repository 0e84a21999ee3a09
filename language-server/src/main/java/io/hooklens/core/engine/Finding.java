package io.hooklens.core.engine;

import io.hooklens.core.yaml.Range;
import java.util.List;

/**
 * One problem found by a rule.
 *
 * @param document index of the YAML document in the file
 * @param resource the object it is about, or null for file-level findings
 * @param related other places that explain it (the grace period a hook is measured against)
 */
public record Finding(String ruleId, String ruleName, Severity severity, String message, Range range,
    int document, ResourceRef resource, List<Related> related) {

  /** The object a finding is about. */
  public record ResourceRef(String apiVersion, String kind, String name, int document) {}

  /** Another place in the same file that belongs to a finding. */
  public record Related(Range range, String message) {}

  public Finding withSeverity(Severity s) {
    return new Finding(ruleId, ruleName, s, message, range, document, resource, related);
  }
}
