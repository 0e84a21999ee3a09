package io.hooklens.core.engine;

/** The platform versions findings are judged against. */
public record Targets(Version kubernetes) {
  /** Newest stable Kubernetes whose sources the rules were checked against. */
  public static final Version DEFAULT_KUBERNETES = new Version(1, 34);
  public static final Targets DEFAULT = new Targets(DEFAULT_KUBERNETES);

  public Targets withKubernetes(Version v) {
    return new Targets(v);
  }
}
