package io.hooklens.core.engine;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * What findings are judged against: the Kubernetes version, the Helm major version and the tool that
 * deploys charts.
 */
public record Targets(Version kubernetes, Helm helm, Deployer deployer) {
  /** Newest stable Kubernetes whose sources the rules were checked against. */
  public static final Version DEFAULT_KUBERNETES = new Version(1, 34);
  /** Helm 3, which most releases are still made with; Helm 4 is a choice to state. */
  public static final Helm DEFAULT_HELM = Helm.V3;
  public static final Deployer DEFAULT_DEPLOYER = Deployer.HELM;
  public static final Targets DEFAULT = new Targets(DEFAULT_KUBERNETES, DEFAULT_HELM, DEFAULT_DEPLOYER);

  /** The Helm major version; Helm 2 is out of scope. */
  public enum Helm {
    /** Helm 3, judged as 3.18 or later: the first 3.x that reads hook-output-log-policy. */
    V3("3", "Helm 3"),
    V4("4", "Helm 4");

    private final String value;
    private final String display;

    Helm(String value, String display) {
      this.value = value;
      this.display = display;
    }

    /** As written in configuration and flags: {@code 3} or {@code 4}. */
    public String value() {
      return value;
    }

    /** As messages name it: {@code Helm 3}. */
    public String display() {
      return display;
    }

    /** Reads {@code 3} or {@code 4} (a leading {@code v} is allowed); empty otherwise. */
    public static Optional<Helm> parse(String s) {
      String v = s == null ? "" : s.trim();
      String bare = v.startsWith("v") ? v.substring(1) : v;
      return Arrays.stream(values()).filter(h -> h.value.equals(bare)).findFirst();
    }
  }

  /** What deploys the charts: the helm CLI, Argo CD, or Flux's helm-controller. */
  public enum Deployer {
    HELM("helm", "the helm CLI"),
    ARGOCD("argocd", "Argo CD"),
    FLUX("flux", "Flux");

    private final String value;
    private final String display;

    Deployer(String value, String display) {
      this.value = value;
      this.display = display;
    }

    /** As written in configuration and flags. */
    public String value() {
      return value;
    }

    /** As messages name it. */
    public String display() {
      return display;
    }

    /** Reads {@code helm}, {@code argocd} or {@code flux}, in any case; empty otherwise. */
    public static Optional<Deployer> parse(String s) {
      String v = s == null ? "" : s.trim().toLowerCase(Locale.ROOT);
      return Arrays.stream(values()).filter(d -> d.value.equals(v)).findFirst();
    }
  }

  public Targets withKubernetes(Version v) {
    return new Targets(v, helm, deployer);
  }

  public Targets withHelm(Helm h) {
    return new Targets(kubernetes, h, deployer);
  }

  public Targets withDeployer(Deployer d) {
    return new Targets(kubernetes, helm, d);
  }

  /** Whether Argo CD deploys the charts: it runs only helm template and applies hooks itself. */
  public boolean argoCd() {
    return deployer == Deployer.ARGOCD;
  }
}
