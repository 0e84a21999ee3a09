package io.hooklens.cli;

import io.hooklens.chart.SetValues;
import io.hooklens.core.engine.StrVals;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;

/** {@code --set}, {@code --set-string} and {@code --set-file} for a chart, as Helm reads them */
final class SetOptions {
  List<String> set = new ArrayList<>();

  List<String> setString = new ArrayList<>();

  List<String> setFile = new ArrayList<>();

  /** Adds these options to a command. */
  void addTo(CommandSpec spec) {
    spec.addOption(Specs.list(String.class, () -> set, v -> set = v, "--set").paramLabel("KEY=VALUE")
        .description("For charts: set values as helm --set does: pairs separated by commas, a.b for a "
            + "nested key, a[0] for a list item, {x,y} for a list, null to remove a key, \\ before , . = "
            + "to keep it plain; numbers and true/false are typed (repeatable; later ones win).").build());
    spec.addOption(Specs.list(String.class, () -> setString, v -> setString = v, "--set-string").paramLabel("KEY=VALUE")
        .description("For charts: as --set, but every value is text (repeatable).").build());
    spec.addOption(Specs.list(String.class, () -> setFile, v -> setFile = v, "--set-file").paramLabel("KEY=FILE")
        .description("For charts: as --set, but each value is a file whose content is the value, as text "
            + "(repeatable).").build());
  }

  /** Whether Helm would read every argument and every --set-file file exists; if not, says why on one line. */
  boolean valid(PrintWriter err) {
    return valid("--set", set, false, err) && valid("--set-string", setString, false, err)
        && valid("--set-file", setFile, true, err);
  }

  private static boolean valid(String option, List<String> arguments, boolean files, PrintWriter err) {
    for (String a : arguments) {
      StrVals.Parsed parsed = StrVals.parse(a);
      if (parsed.error() != null) {
        err.println("hooklens: " + option + " " + a + ": " + parsed.error());
        return false;
      }
      for (StrVals.Pair p : files ? parsed.pairs() : List.<StrVals.Pair>of()) {
        for (String file : p.items()) {
          if (!isFile(file)) {
            err.println("hooklens: " + option + " " + a + ": no such file: " + file);
            return false;
          }
        }
      }
    }
    return true;
  }

  private static boolean isFile(String path) {
    try {
      return Files.isRegularFile(Path.of(path));
    } catch (InvalidPathException e) {
      return false;
    }
  }

  SetValues values() {
    return new SetValues(set, setString, setFile);
  }
}
