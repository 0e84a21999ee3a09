package io.hooklens.cli.report;

import io.hooklens.core.engine.Finding;
import io.hooklens.core.engine.RuleRegistry;
import io.hooklens.core.text.Xml;
import java.io.PrintWriter;

/** Checkstyle XML, read by many CI dashboards and review bots. */
public final class CheckstyleFormatter implements Formatter {
  @Override
  public void start(RuleRegistry registry, String toolVersion, PrintWriter out) {
    out.println("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
    out.println("<checkstyle version=\"4.3\">");
  }

  @Override
  public void file(FileResult file, PrintWriter out) {
    out.println("  <file name=\"" + Xml.escape(file.displayName()) + "\">");
    for (Finding f : file.result().findings()) {
      out.println("    <error line=\"" + (f.range().start().line() + 1) + "\" column=\""
          + (f.range().start().column() + 1) + "\" severity=\"" + f.severity().label() + "\" message=\""
          + Xml.escape(file.messageOf(f)) + "\" source=\"hooklens." + f.ruleId() + "\"/>");
    }
    out.println("  </file>");
  }

  @Override
  public void end(Totals totals, PrintWriter out) {
    out.println("</checkstyle>");
  }
}
