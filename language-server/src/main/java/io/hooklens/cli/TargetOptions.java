package io.hooklens.cli;

import io.hooklens.core.engine.Config;
import io.hooklens.core.engine.Targets;
import io.hooklens.core.engine.Version;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.TypeConversionException;

/** The target flags; each one given replaces that target of the configuration. */
final class TargetOptions {
  Version kubernetes;

  Targets.Helm helm;

  Targets.Deployer deployer;

  /** Adds these options to a command. */
  void addTo(CommandSpec spec) {
    spec.addOption(Specs.option(Version.class, () -> kubernetes, v -> kubernetes = v, "--kubernetes-version")
        .paramLabel("VERSION").converters(new KubernetesConverter())
        .description("Judge against this Kubernetes version, e.g. 1.29 (default: the configuration's, else "
            + "1.34).").build());
    spec.addOption(Specs.option(Targets.Helm.class, () -> helm, v -> helm = v, "--helm-version")
        .paramLabel("3|4").converters(new HelmConverter())
        .description("Judge Helm hooks by Helm 3 (3.18 or later) or Helm 4 (default: the configuration's, "
            + "else 3).").build());
    spec.addOption(Specs.option(Targets.Deployer.class, () -> deployer, v -> deployer = v, "--deployer")
        .paramLabel("TOOL").converters(new DeployerConverter())
        .description("What deploys the charts: helm, argocd or flux (default: the configuration's, else "
            + "helm).").build());
  }

  Config apply(Config c) {
    // Said before any comparison: a record's first equals builds its method handles, which cost a one-file lint
    // a twentieth of its start.
    if (kubernetes == null && helm == null && deployer == null) {
      return c;
    }
    Targets t = c.targets();
    if (kubernetes != null) {
      t = t.withKubernetes(kubernetes);
    }
    if (helm != null) {
      t = t.withHelm(helm);
    }
    if (deployer != null) {
      t = t.withDeployer(deployer);
    }
    return t.equals(c.targets()) ? c : c.withTargets(t);
  }

  /** Reads {@code --kubernetes-version}. */
  static final class KubernetesConverter implements ITypeConverter<Version> {
    @Override
    public Version convert(String value) {
      Version v = Version.parse(value);
      if (v == null) {
        throw new TypeConversionException("must look like 1.34, not \"" + value + "\"");
      }
      return v;
    }
  }

  /** Reads {@code --helm-version}. */
  static final class HelmConverter implements ITypeConverter<Targets.Helm> {
    @Override
    public Targets.Helm convert(String value) {
      return Targets.Helm.parse(value)
          .orElseThrow(() -> new TypeConversionException("must be 3 or 4, not \"" + value + "\""));
    }
  }

  /** Reads {@code --deployer}. */
  static final class DeployerConverter implements ITypeConverter<Targets.Deployer> {
    @Override
    public Targets.Deployer convert(String value) {
      return Targets.Deployer.parse(value)
          .orElseThrow(() -> new TypeConversionException("must be helm, argocd or flux, not \"" + value + "\""));
    }
  }
}
