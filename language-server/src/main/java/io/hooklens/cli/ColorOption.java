package io.hooklens.cli;

import picocli.CommandLine.Option;

/** {@code --color}, for commands with a text report; a picocli mixin. */
final class ColorOption {
  /** When to colour. */
  enum Mode { auto, always, never }

  @Option(names = "--color", defaultValue = "auto", paramLabel = "WHEN",
      description = "Colour the text report: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}; auto means when "
          + "writing to a terminal and NO_COLOR is unset).")
  Mode color;

  /** Whether to colour a report that goes to standard output, or to a file when {@code toFile}. */
  boolean use(boolean toFile) {
    return switch (color) {
      case always -> true;
      case never -> false;
      case auto -> !toFile && System.console() != null && System.getenv("NO_COLOR") == null;
    };
  }
}
