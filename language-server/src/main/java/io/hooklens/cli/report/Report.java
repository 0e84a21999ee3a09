package io.hooklens.cli.report;

import io.hooklens.core.engine.Finding;
import io.hooklens.core.engine.RuleRegistry;
import io.hooklens.core.engine.Severity;
import java.io.PrintWriter;
import java.util.OptionalInt;

/** A report being written: each file's findings go out as the file is added, and only the totals are kept. */
public final class Report {
  private final Formatter format;
  private final PrintWriter out;
  private int files;
  private final long[] bySeverity = new long[Severity.values().length];
  private int suppressed;
  private OptionalInt baselined = OptionalInt.empty();

  public Report(Formatter format, PrintWriter out, RuleRegistry registry, String toolVersion) {
    this.format = format;
    this.out = out;
    format.start(registry, toolVersion, out);
  }

  public void add(FileResult file) {
    files++;
    suppressed += file.result().suppressed();
    file.baselined().ifPresent(n -> baselined = OptionalInt.of(baselined.orElse(0) + n));
    for (Finding f : file.result().findings()) {
      bySeverity[f.severity().ordinal()]++;
    }
    format.file(file, out);
  }

  /** Writes the totals and returns them. */
  public Totals finish(OptionalInt fixed) {
    Totals totals = new Totals(files, bySeverity[Severity.ERROR.ordinal()], bySeverity[Severity.WARNING.ordinal()],
        bySeverity[Severity.INFO.ordinal()], suppressed, fixed, baselined);
    format.end(totals, out);
    out.flush();
    return totals;
  }
}
