package io.hooklens.cli.report;

import io.hooklens.core.engine.Finding;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.text.Printable;
import io.hooklens.core.yaml.SourceText;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Human-readable output: one line per finding, a code frame, a summary; colour only when asked. Names, messages and
 * source lines are shown {@link Printable}: they come from the manifest.
 */
public final class TextFormatter implements Formatter {
  private static final String RESET = "\u001b[0m";
  private static final String BOLD = "\u001b[1m";
  private static final String DIM = "\u001b[2m";

  private final boolean color;

  public TextFormatter(boolean color) {
    this.color = color;
  }

  @Override
  public void file(FileResult file, PrintWriter out) {
    SourceText source = file.result().document().source();
    for (Finding f : file.result().findings()) {
      int line = f.range().start().line();
      out.println(paint(BOLD, Printable.line(file.displayName()) + ":" + (line + 1) + ":"
          + (f.range().start().column() + 1)) + ": " + paint(colorOf(f.severity()), f.severity().label()) + " "
          + f.ruleId() + " " + Printable.line(file.messageOf(f)) + " " + paint(DIM, "[" + f.ruleName() + "]"));
      frame(source, f, out);
    }
  }

  @Override
  public void end(Totals totals, PrintWriter out) {
    long errors = totals.errors();
    long warnings = totals.warnings();
    long infos = totals.infos();
    int n = totals.files();
    String files = n + (n == 1 ? " file" : " files");
    List<String> held = new ArrayList<>();
    if (totals.suppressed() > 0) {
      held.add(totals.suppressed() + " suppressed");
    }
    totals.baselined().ifPresent(b -> held.add(b + " in the baseline"));
    String suppressed = held.isEmpty() ? "" : " (" + String.join(", ", held) + ")";
    if (totals.fixed().isPresent() && totals.fixed().getAsInt() > 0) {
      suppressed += " after fixing " + plural(totals.fixed().getAsInt(), "problem");
    }
    if (errors + warnings + infos == 0) {
      out.println("No problems in " + files + suppressed + ".");
    } else {
      out.println(plural(errors, "error") + ", " + plural(warnings, "warning") + ", " + infos + " info in " + files
          + suppressed + ".");
    }
  }

  private static String plural(long n, String word) {
    return n + " " + word + (n == 1 ? "" : "s");
  }

  private void frame(SourceText source, Finding f, PrintWriter out) {
    List<CodeFrame.Line> lines = CodeFrame.of(source, f);
    if (lines.isEmpty()) {
      return;
    }
    int width = String.valueOf(lines.get(lines.size() - 1).number() + 1).length();
    for (CodeFrame.Line l : lines) {
      boolean at = l.caretColumn() >= 0;
      out.println(paint(DIM, (at ? "> " : "  ") + pad(l.number() + 1, width) + " | ") + l.text());
      if (at) {
        out.println(paint(DIM, "  " + " ".repeat(width) + " | ") + " ".repeat(l.caretColumn())
            + paint(colorOf(f.severity()), "^".repeat(l.carets())));
      }
    }
  }

  private static String pad(int n, int width) {
    String s = String.valueOf(n);
    return " ".repeat(Math.max(0, width - s.length())) + s;
  }

  private static String colorOf(Severity s) {
    return switch (s) {
      case ERROR -> "\u001b[31m";
      case WARNING -> "\u001b[33m";
      case INFO -> "\u001b[36m";
    };
  }

  private String paint(String code, String text) {
    return color ? code + text + RESET : text;
  }
}
