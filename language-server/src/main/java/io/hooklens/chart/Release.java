package io.hooklens.chart;

/**
 * The release a chart is rendered for, as {@code helm template NAME --namespace NAMESPACE}: what templates read as
 * {@code .Release.Name} and {@code .Release.Namespace}.
 */
public record Release(String name, String namespace) {
  /** The release charts are rendered for unless one is given. */
  public static final Release DEFAULT = new Release("release", "default");
}
