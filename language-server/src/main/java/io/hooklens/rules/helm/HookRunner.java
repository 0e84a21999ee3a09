package io.hooklens.rules.helm;

import io.hooklens.core.engine.Targets;

/**
 * Who runs a chart's hooks under the targets, as messages name it. Flux's helm-controller runs Helm
 * itself (the Helm SDK, Helm 4 from helm-controller 1.5), so Helm's semantics hold there; Argo CD only
 * renders charts with {@code helm template} and runs the hooks itself ({@link ArgoCdHooks}).
 */
final class HookRunner {
  private HookRunner() {}

  /** {@code Helm 3}, {@code Helm 4}, {@code Flux's helm-controller (Helm 4)} or {@code Argo CD}. */
  static String name(Targets t) {
    return switch (t.deployer()) {
      case HELM -> t.helm().display();
      case FLUX -> "Flux's helm-controller (" + t.helm().display() + ")";
      case ARGOCD -> t.deployer().display();
    };
  }

  /**
   * Whether hook objects are created with server-side apply, which updates an existing object instead of
   * failing: Helm 4's default for install, and for upgrades of releases installed that way.
   */
  static boolean appliesServerSide(Targets t) {
    return !t.argoCd() && t.helm() == Targets.Helm.V4;
  }
}
