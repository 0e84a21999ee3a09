package io.hooklens.run.report;

/**
 * A static finding about a hook that ran.
 *
 * @param file the chart file it is in, for a rendered chart; null when it is in the run's own file
 * @param line 1-based
 * @param column 1-based, in code points
 */
public record Prediction(String rule, String severity, String message, String file, int line, int column) {}
