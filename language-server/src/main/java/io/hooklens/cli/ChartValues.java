package io.hooklens.cli;

import io.hooklens.app.ChartLint;
import io.hooklens.core.engine.Config;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Model.CommandSpec;

/** {@code --values} and the {@code --set} options, as Helm reads them, for every command that renders charts. */
final class ChartValues {
  List<Path> valuesFiles = new ArrayList<>();

  final SetOptions setValues = new SetOptions();

  String helm;

  String releaseName;

  String namespace;

  boolean dependencyUpdate;

  /** Adds these options to a command. */
  void addTo(CommandSpec spec) {
    spec.addOption(Specs.list(Path.class, () -> valuesFiles, v -> valuesFiles = v, "--values").paramLabel("FILE")
        .description("For charts: a values file on top of values.yaml, as helm -f does, for every "
            + "rendering (repeatable; later files win).").build());
    setValues.addTo(spec);
    spec.addOption(Specs.option(String.class, () -> helm, v -> helm = v, "--helm").paramLabel("PATH")
        .description("For charts: render with this helm binary (helm template) rather than with Helm's "
            + "bundled library, on any platform. Without it, a helm on the PATH renders where the library "
            + "is not bundled (anything but linux-amd64).").build());
    spec.addOption(Specs.option(String.class, () -> releaseName, v -> releaseName = v, "--release-name")
        .paramLabel("NAME")
        .description("For charts: the release name to render for, as helm template NAME does (default: the "
            + "configuration's releaseName, else release).").build());
    spec.addOption(Specs.option(String.class, () -> namespace, v -> namespace = v, "-n", "--namespace")
        .paramLabel("NAMESPACE")
        .description("For charts: the namespace to render for, as helm template --namespace does (default: "
            + "the configuration's namespace, else default). With lint --context: the namespace to read "
            + "(default: the context's).").build());
    spec.addOption(Specs.option(boolean.class, () -> dependencyUpdate, v -> dependencyUpdate = v, "--dependency-update")
        .description("For charts: first do what helm dependency build does, in the copy of the chart that "
            + "is rendered (the chart's own charts/ is left as it is); may reach the dependencies' "
            + "repositories.").build());
  }

  /**
   * Whether every values file exists, Helm would read every --set argument and take the release and namespace
   * names, and the helm binary named runs; if not, says why on one line. The binary named renders every chart of
   * this process from then on.
   */
  boolean valid(PrintWriter err) {
    if (helm != null && !ChartLint.useHelm(helm)) {
      err.println("hooklens: --helm " + helm + ": not an executable file" + (helm.contains("/") ? "" : " on the PATH"));
      return false;
    }
    return existing("--values", valuesFiles, err) && setValues.valid(err)
        && name("--release-name", releaseName, Config.Charts::releaseNameProblem, err)
        && name("--namespace", namespace, Config.Charts::namespaceProblem, err);
  }

  private static boolean name(String option, String value, UnaryOperator<String> problem, PrintWriter err) {
    String why = value == null ? null : problem.apply(value);
    if (why != null) {
      err.println("hooklens: " + option + ": " + why);
      return false;
    }
    return true;
  }

  /** Whether each of an option's values files exists; if not, says which does not. */
  static boolean existing(String option, List<Path> files, PrintWriter err) {
    for (Path v : files) {
      if (!Files.isRegularFile(v)) {
        err.println("hooklens: " + option + " " + v + ": no such file");
        return false;
      }
    }
    return true;
  }

  /** The values, as the shared chart rendering takes them. */
  ChartLint.Values values() {
    return values(List.of());
  }

  /** The values, with values files each rendered as one more values set. */
  ChartLint.Values values(List<Path> extraSets) {
    return new ChartLint.Values(valuesFiles, extraSets, setValues.values(), releaseName, namespace, dependencyUpdate);
  }
}
