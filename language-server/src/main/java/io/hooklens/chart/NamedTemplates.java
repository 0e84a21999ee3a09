package io.hooklens.chart;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The named templates of a chart's templates: those used by a literal name, and those defined. */
final class NamedTemplates {
  private static final Pattern USED = Pattern.compile("\\b(?:include|template)\\s+\"([^\"\\\\{}]+)\"");
  private static final Pattern DEFINED = Pattern.compile("\\b(?:define|block)\\s+\"([^\"\\\\{}]+)\"");
  /** A {@code define} action, whole. */
  private static final Pattern DEFINE = Pattern.compile("\\{\\{-?\\s*define\\s+\"([^\"\\\\{}]+)\"\\s*-?}}");
  /** The start of an action that opens or closes a body, up to its keyword. */
  private static final Pattern NESTING = Pattern.compile("\\{\\{-?\\s*(if|with|range|block|define|end)\\b");

  /**
   * A named template's definition in a text: its name and where its body is, from just after the {@code define}
   * action to the start of its {@code end}.
   */
  record Definition(String name, int start, int end) {}

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

  /** The named templates a text uses by a literal name, with {@code include} or {@code template}. */
  static Set<String> used(String text) {
    Set<String> used = new TreeSet<>();
    if (text.contains("{{")) {
      collect(USED, text, used);
    }
    return used;
  }

  /** The definitions of a text, each body up to the {@code end} that closes it; an unclosed one is left out. */
  static List<Definition> definitions(String text) {
    List<Definition> out = new ArrayList<>();
    Matcher define = DEFINE.matcher(text);
    Matcher nesting = NESTING.matcher(text);
    int from = 0;
    while (define.find(from)) {
      int depth = 1;
      int at = define.end();
      int end = -1;
      while (end < 0 && nesting.find(at)) {
        int close = text.indexOf("}}", nesting.end());
        if (close < 0) {
          break;
        }
        depth += nesting.group(1).equals("end") ? -1 : 1;
        if (depth == 0) {
          end = nesting.start();
        }
        at = close + 2;
      }
      if (end < 0) {
        break;
      }
      out.add(new Definition(define.group(1), define.end(), end));
      from = at;
    }
    return out;
  }

  private static void collect(Pattern p, String text, Set<String> into) {
    Matcher m = p.matcher(text);
    while (m.find()) {
      into.add(m.group(1));
    }
  }
}
