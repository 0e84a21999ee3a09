package io.hooklens.cli.report;

import io.hooklens.core.engine.Finding;
import io.hooklens.core.text.Xml;
import java.io.PrintWriter;
import java.io.StringWriter;

/** JUnit XML: a test suite per file, a failed test case per finding, one passing case for a clean file. */
public final class JunitFormatter implements Formatter {
  // The opening tag holds the totals, so the suites wait here, as text, until the last file is in.
  private final StringWriter suites = new StringWriter();
  private int total;
  private int failures;

  @Override
  public void file(FileResult file, PrintWriter out) {
    PrintWriter suite = new PrintWriter(suites);
    String name = Xml.escape(file.displayName());
    int n = file.result().findings().size();
    total += Math.max(1, n);
    failures += n;
    suite.println("  <testsuite name=\"" + name + "\" tests=\"" + Math.max(1, n) + "\" failures=\"" + n + "\">");
    if (n == 0) {
      suite.println("    <testcase classname=\"" + name + "\" name=\"hooklens\"/>");
    }
    for (Finding f : file.result().findings()) {
      String where = (f.range().start().line() + 1) + ":" + (f.range().start().column() + 1);
      suite.println("    <testcase classname=\"" + name + "\" name=\"" + f.ruleId() + " " + f.ruleName() + " at "
          + where + "\">");
      suite.println("      <failure type=\"" + f.severity().label() + "\" message=\"" + Xml.escape(file.messageOf(f))
          + "\">" + Xml.escape(file.displayName() + ":" + where + ": " + f.severity().label() + " " + f.ruleId()
          + " " + file.messageOf(f)) + "</failure>");
      suite.println("    </testcase>");
    }
    suite.println("  </testsuite>");
    suite.flush();
  }

  @Override
  public void end(Totals totals, PrintWriter out) {
    out.println("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
    out.println("<testsuites name=\"hooklens\" tests=\"" + total + "\" failures=\"" + failures + "\">");
    out.print(suites);
    out.println("</testsuites>");
  }
}
