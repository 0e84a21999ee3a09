package io.hooklens.cli.report;

import io.hooklens.core.engine.Finding;
import io.hooklens.core.text.Xml;
import java.io.PrintWriter;

/** JUnit XML: a test suite per file, a failed test case per finding, one passing case for a clean file. */
public final class JunitFormatter implements Formatter {
  @Override
  public void write(Report report, PrintWriter out) {
    int total = 0;
    int failures = 0;
    for (FileResult f : report.files()) {
      int n = f.result().findings().size();
      total += Math.max(1, n);
      failures += n;
    }
    out.println("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
    out.println("<testsuites name=\"hooklens\" tests=\"" + total + "\" failures=\"" + failures + "\">");
    for (FileResult file : report.files()) {
      String name = Xml.escape(file.displayName());
      int n = file.result().findings().size();
      out.println("  <testsuite name=\"" + name + "\" tests=\"" + Math.max(1, n) + "\" failures=\"" + n + "\">");
      if (n == 0) {
        out.println("    <testcase classname=\"" + name + "\" name=\"hooklens\"/>");
      }
      for (Finding f : file.result().findings()) {
        String where = (f.range().start().line() + 1) + ":" + (f.range().start().column() + 1);
        out.println("    <testcase classname=\"" + name + "\" name=\"" + f.ruleId() + " " + f.ruleName() + " at "
            + where + "\">");
        out.println("      <failure type=\"" + f.severity().label() + "\" message=\"" + Xml.escape(file.messageOf(f))
            + "\">" + Xml.escape(file.displayName() + ":" + where + ": " + f.severity().label() + " " + f.ruleId()
            + " " + file.messageOf(f)) + "</failure>");
        out.println("    </testcase>");
      }
      out.println("  </testsuite>");
    }
    out.println("</testsuites>");
  }
}
