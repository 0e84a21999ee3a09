package io.hooklens.cli.report;

import java.io.PrintWriter;

/** Writes a report in one output format. */
public interface Formatter {
  void write(Report report, PrintWriter out);
}
