package io.hooklens.chart;

import java.nio.file.Path;

/**
 * One rendering of a chart: its {@code values.yaml}, and on top of it one more values file (a
 * {@code ci/*-values.yaml} or a file given on the command line), or none.
 *
 * @param label how reports name it: {@code values.yaml}, {@code ci/prod-values.yaml}, or the path as given
 * @param file the values file on top of {@code values.yaml}, or null
 */
public record ValuesSet(String label, Path file) {
  /** The chart's own defaults alone. */
  public static final ValuesSet DEFAULTS = new ValuesSet("values.yaml", null);
}
