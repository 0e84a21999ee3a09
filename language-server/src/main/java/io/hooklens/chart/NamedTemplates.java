package io.hooklens.chart;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The named templates of a chart's templates: those used by a literal name, and those defined. */
final class NamedTemplates {
  private static final Pattern USED = Pattern.compile("\\b(?:include|template)\\s+\"([^\"\\\\{}]+)\"");
  private static final Pattern DEFINED = Pattern.compile("\\b(?:define|block)\\s+\"([^\"\\\\{}]+)\"");

  private NamedTemplates() {}

  /**
   * Empty definitions, one a line, of the named templates the texts use and do not define: what a dependency
   * that is not there would have defined, rendering to nothing.
   */
  static String undefined(List<String> texts) {
    Set<String> used = new TreeSet<>();
    Set<String> defined = new TreeSet<>();
    for (String text : texts) {
      if (text.contains("{{")) {
        collect(USED, text, used);
        collect(DEFINED, text, defined);
      }
    }
    used.removeAll(defined);
    StringBuilder sb = new StringBuilder();
    for (String name : used) {
      sb.append("{{- define \"").append(name).append("\" -}}{{- end -}}\n");
    }
    return sb.toString();
  }

  private static void collect(Pattern p, String text, Set<String> into) {
    Matcher m = p.matcher(text);
    while (m.find()) {
      into.add(m.group(1));
    }
  }
}
