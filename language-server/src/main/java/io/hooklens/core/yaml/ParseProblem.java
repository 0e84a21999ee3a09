package io.hooklens.core.yaml;

/** Something wrong with the text itself, found while reading it. */
public record ParseProblem(Kind kind, Range range, String message) {
  /** What went wrong; the engine maps each kind to a finding of its own rule. */
  public enum Kind {
    /** Not well-formed YAML or JSON. */
    SYNTAX,
    /** Refused to protect the process: too large, too deep, too many aliases, not text. */
    LIMIT,
    /** A mapping repeats a key. */
    DUPLICATE_KEY,
    /** A chart that Helm could not render; reported on the template or values file Helm names. */
    RENDER,
    /**
     * A resource Helm left out of a rendered chart, since a {@code helm.sh/hook} key that a template action
     * wrote names an event Helm does not know; Helm only logs it. Reported on the chart's Chart.yaml.
     */
    SKIPPED_HOOK,
    /**
     * A chart Helm rendered only in part: without a dependency missing from {@code charts/}, or with a placeholder
     * for a value Helm refused to go without. Reported on the dependency's entry or where Helm refused.
     */
    PARTIAL_RENDER
  }
}
