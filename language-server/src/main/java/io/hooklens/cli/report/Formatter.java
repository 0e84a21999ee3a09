package io.hooklens.cli.report;

import io.hooklens.core.engine.RuleRegistry;
import java.io.PrintWriter;

/**
 * Writes a report in one output format as the files are linted, so that a file's model can be dropped once its
 * findings are written: the run's memory does not grow with the number of files.
 */
public interface Formatter {
  /** Before the first file. */
  default void start(RuleRegistry registry, String toolVersion, PrintWriter out) {}

  /** One file's findings, in report order; its document is still whole. */
  void file(FileResult file, PrintWriter out);

  /** After the last file. */
  void end(Totals totals, PrintWriter out);
}
