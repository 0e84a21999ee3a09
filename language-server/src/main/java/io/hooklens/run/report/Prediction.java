package io.hooklens.run.report;

/**
 * A static finding about a hook that ran.
 *
 * @param line 1-based
 * @param column 1-based, in code points
 */
public record Prediction(String rule, String severity, String message, int line, int column) {}
