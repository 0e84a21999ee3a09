package io.hooklens.cli;

import picocli.CommandLine.Model.CommandSpec;

/** {@code --color}, for commands with a text report */
final class ColorOption {
  /** When to colour. */
  enum Mode { auto, always, never }

  Mode color;

  /** Adds these options to a command. */
  void addTo(CommandSpec spec) {
    spec.addOption(Specs.option(Mode.class, () -> color, v -> color = v, "--color")
        .paramLabel("WHEN").defaultValue("auto")
        .description("Colour the text report: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}; auto "
            + "means when writing to a terminal and NO_COLOR is unset).").build());
  }

  /** Whether to colour a report that goes to standard output, or to a file when {@code toFile}. */
  boolean use(boolean toFile) {
    return switch (color) {
      case always -> true;
      case never -> false;
      case auto -> !toFile && System.console() != null && System.getenv("NO_COLOR") == null;
    };
  }
}
