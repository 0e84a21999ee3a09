package io.hooklens.cli.report;

import io.hooklens.core.engine.Finding;
import io.hooklens.core.text.Printable;
import java.io.PrintWriter;

/**
 * GitHub Actions workflow commands, which show findings as annotations on the pull request; the log shows them too,
 * so control characters from the manifest are shown {@link Printable}.
 */
public final class GithubFormatter implements Formatter {
  @Override
  public void file(FileResult file, PrintWriter out) {
    for (Finding f : file.result().findings()) {
      String command = switch (f.severity()) {
        case ERROR -> "error";
        case WARNING -> "warning";
        case INFO -> "notice";
      };
      out.println("::" + command
          + " file=" + property(Printable.line(file.displayName()))
          + ",line=" + (f.range().start().line() + 1)
          + ",col=" + (f.range().start().column() + 1)
          + ",endLine=" + (f.range().end().line() + 1)
          + ",endColumn=" + (f.range().end().column() + 1)
          + ",title=" + property(f.ruleId() + " " + f.ruleName())
          + "::" + data(Printable.lines(file.messageOf(f))));
    }
  }

  @Override
  public void end(Totals totals, PrintWriter out) {
    // The annotations are the whole report: a totals line would be a log line that annotates nothing.
  }

  static String data(String s) {
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A");
  }

  static String property(String s) {
    return data(s).replace(":", "%3A").replace(",", "%2C");
  }
}
