package io.hooklens.core.engine;

import io.hooklens.core.yaml.Range;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * One problem found by a rule.
 *
 * @param document index of the YAML document in the file
 * @param resource the object it is about, or null for file-level findings
 * @param related other places that explain it (the grace period a hook is measured against)
 * @param fixes changes that resolve it, at most one of them safe
 */
public record Finding(String ruleId, String ruleName, Severity severity, String message, Range range,
    int document, ResourceRef resource, List<Related> related, List<Fix> fixes) {
  /** The order findings are reported in, in a file and in a chart's template: by place, then rule. */
  public static final Comparator<Finding> ORDER = Comparator
      .comparing(Finding::range, Range::compareStart)
      .thenComparing(Finding::ruleId)
      .thenComparing(Finding::message);

  /** A finding without fixes, as chart findings mapped back to templates are. */
  public Finding(String ruleId, String ruleName, Severity severity, String message, Range range, int document,
      ResourceRef resource, List<Related> related) {
    this(ruleId, ruleName, severity, message, range, document, resource, related, List.of());
  }

  /** The object a finding is about. */
  public record ResourceRef(String apiVersion, String kind, String name, int document) {}

  /**
   * Another place that belongs to a finding.
   *
   * @param file the file it is in, by the name reports give it; null for the finding's own file
   */
  public record Related(Range range, String message, String file) {
    /** A place in the finding's own file. */
    public Related(Range range, String message) {
      this(range, message, null);
    }
  }

  public Finding withSeverity(Severity s) {
    return new Finding(ruleId, ruleName, s, message, range, document, resource, related, fixes);
  }

  public Finding withFixes(List<Fix> f) {
    return new Finding(ruleId, ruleName, severity, message, range, document, resource, related, List.copyOf(f));
  }

  /** The fix {@code hooklens lint --fix} applies, if any. */
  public Optional<Fix> safeFix() {
    return fixes.stream().filter(Fix::safe).findFirst();
  }
}
