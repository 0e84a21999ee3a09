package io.hooklens.cli;

import io.hooklens.app.ChartLint;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code --values} and the {@code --set} options, as Helm reads them, for every command that renders charts. */
final class ChartValues {
  @Option(names = "--values", paramLabel = "FILE",
      description = "For charts: a values file on top of values.yaml, as helm -f does, for every rendering "
          + "(repeatable; later files win).")
  List<Path> valuesFiles = new ArrayList<>();

  @Mixin
  SetOptions setValues;

  @Option(names = "--helm", paramLabel = "PATH",
      description = "For charts: render with this helm binary (helm template) rather than with Helm's bundled "
          + "library, on any platform. Without it, a helm on the PATH renders where the library is not bundled "
          + "(anything but linux-amd64).")
  String helm;

  /**
   * Whether every values file exists, Helm would read every --set argument and the helm binary named runs; if not,
   * says why on one line. The binary named renders every chart of this process from then on.
   */
  boolean valid(PrintWriter err) {
    if (helm != null && !ChartLint.useHelm(helm)) {
      err.println("hooklens: --helm " + helm + ": not an executable file" + (helm.contains("/") ? "" : " on the PATH"));
      return false;
    }
    return existing("--values", valuesFiles, err) && setValues.valid(err);
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
    return new ChartLint.Values(valuesFiles, List.of(), setValues.values());
  }
}
