package io.hooklens.chart;

import io.hooklens.core.yaml.Range;
import io.hooklens.core.yaml.SourceText;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where Helm's error message puts the problem: the template position it names
 * ({@code parse error at (demo/templates/cm.yaml:4)}, {@code template: demo/templates/x.yaml:4:18:}),
 * the file whose YAML it could not read ({@code yaml: line 3}), or else the chart's {@code Chart.yaml}.
 */
final class RenderFailure {
  /**
   * A place in a chart file.
   *
   * @param line 0-based, or -1 for the chart as a whole (its Chart.yaml)
   * @param column 0-based byte offset in the line, as Go's template errors count, or -1 when unknown
   */
  record Location(ChartCopy.Origin origin, int line, int column) {}

  private static final Pattern TEMPLATE_POSITION =
      Pattern.compile("([\\w.@+-]+(?:/[^\\s:()<>\"]+)+):(\\d+)(?::(\\d+))?");
  private static final Pattern YAML_FILE = Pattern.compile("YAML parse error on ([^\\s:]+):");
  private static final Pattern LOADED_FILE = Pattern.compile("cannot load ([\\w.-]+):");
  private static final Pattern YAML_LINE = Pattern.compile("\\byaml: line (\\d+)");
  private static final String DEBUG_HINT = "Use --debug flag to render out invalid YAML";

  private RenderFailure() {}

  /**
   * Helm's message as reported: the copy's paths replaced, on one line, without the hint about a
   * --debug flag Hooklens does not have.
   */
  static String message(String raw, ChartCopy copy) {
    return copy.forReport(raw.replace(DEBUG_HINT, "")).strip().replaceAll("\\s*\\n\\s*", " ");
  }

  /** Where to report a failure of rendering with a values file (or none), from Helm's raw message. */
  static Location locate(String raw, ChartCopy copy, Path valuesFile) {
    Location found = null;
    Matcher m = TEMPLATE_POSITION.matcher(raw);
    while (m.find()) {
      ChartCopy.Origin o = copy.source(m.group(1));
      if (o != null) {
        // Helm nests the positions of included templates; the last one is where evaluation failed.
        int column = m.group(3) == null ? -1 : Integer.parseInt(m.group(3));
        found = new Location(o, Integer.parseInt(m.group(2)) - 1, column);
      }
    }
    if (found != null) {
      return found;
    }
    Matcher y = YAML_FILE.matcher(raw);
    if (y.find() && copy.source(y.group(1)) != null) {
      // Helm's line number counts lines of the rendered document, not of the template.
      return new Location(copy.source(y.group(1)), 0, -1);
    }
    int yamlLine = yamlLine(raw);
    if (valuesFile != null && raw.contains(valuesFile.toString())) {
      return new Location(copy.valuesOrigin(valuesFile), yamlLine, -1);
    }
    Matcher l = LOADED_FILE.matcher(raw);
    if (l.find() && copy.file(l.group(1)) != null) {
      return new Location(copy.file(l.group(1)), yamlLine, -1);
    }
    return new Location(copy.chartYaml(), -1, -1);
  }

  private static int yamlLine(String raw) {
    Matcher m = YAML_LINE.matcher(raw);
    return m.find() ? Integer.parseInt(m.group(1)) - 1 : 0;
  }

  /**
   * The range to report in a file's text: from the column (or the line's first character) to the end
   * of the line's content. A line of -1 means the file as a whole, reported on the key the message is
   * about when Chart.yaml has it, else on the first line.
   */
  static Range range(SourceText text, Location at, String message) {
    int line = at.line() < 0 ? keyLine(text, message) : Math.min(at.line(), text.lineCount() - 1);
    String content = text.line(line).stripTrailing();
    int length = content.codePointCount(0, content.length());
    int start = at.column() < 0 ? length - content.stripLeading().codePointCount(0, content.stripLeading().length())
        : Math.min(length, codePoints(content, at.column()));
    return Range.of(line, start, line, Math.max(start, length));
  }

  /** Chart.yaml's line of the field a chart-level message names, or the first line. */
  private static int keyLine(SourceText text, String message) {
    String key = message.contains("kubeVersion") ? "kubeVersion:"
        : message.contains("dependencies") || message.contains("charts/ directory") ? "dependencies:"
        : message.contains("charts are not installable") ? "type:"
        : null;
    for (int l = 0; key != null && l < text.lineCount(); l++) {
      if (text.line(l).startsWith(key)) {
        return l;
      }
    }
    return 0;
  }

  /** The code point column of a UTF-8 byte offset in a line. */
  private static int codePoints(String line, int bytes) {
    int used = 0;
    int i = 0;
    int column = 0;
    while (i < line.length() && used < bytes) {
      int cp = line.codePointAt(i);
      used += new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
      i += Character.charCount(cp);
      column++;
    }
    return column;
  }
}
