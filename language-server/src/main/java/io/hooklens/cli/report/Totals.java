package io.hooklens.cli.report;

import io.hooklens.core.engine.Severity;
import java.util.OptionalInt;

/**
 * What a whole lint run found, which the formats print after the findings.
 *
 * @param fixed how many problems {@code --fix} fixed; empty without {@code --fix}
 * @param baselined how many findings a baseline held back; empty when no baseline applied
 */
public record Totals(int files, long errors, long warnings, long infos, int suppressed, OptionalInt fixed,
    OptionalInt baselined) {
  public long count(Severity s) {
    return switch (s) {
      case ERROR -> errors;
      case WARNING -> warnings;
      case INFO -> infos;
    };
  }
}
