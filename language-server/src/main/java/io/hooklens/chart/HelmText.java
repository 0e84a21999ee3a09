package io.hooklens.chart;

import io.hooklens.core.model.helm.HelmAnnotations;

/**
 * Rewrites of chart text that make helm-java's rendering show what {@code helm template} would,
 * each keeping every character where it was, so positions in the rendered output and in Helm's error
 * messages stay those of the chart as written.
 */
final class HelmText {
  /** Helm's hook annotation prefix; helm-java's template() leaves out every resource that carries it. */
  static final String HOOK = HelmAnnotations.HOOK;
  /** Stands in for {@link #HOOK} while rendering; same length, so no line or column moves. */
  static final String HIDDEN_HOOK = "hooklns.io/h";

  private static final String LOOKUP = "lookup";
  private static final String EMPTY_DICT = "(dict)";

  private HelmText() {}

  static String hideHooks(String text) {
    return text.replace(HOOK, HIDDEN_HOOK);
  }

  static String restoreHooks(String text) {
    return text.replace(HIDDEN_HOOK, HOOK);
  }

  /**
   * Replaces every call of Helm's {@code lookup} function inside a template action with an empty dict,
   * padded with spaces to the same length (line breaks stay). helm-java renders in a dry-run mode in
   * which {@code lookup} queries the cluster of the user's kubeconfig; {@code helm template} answers
   * it with an empty dict without any connection, and so does the rewritten template.
   */
  static String emptyLookups(String text) {
    if (!text.contains(LOOKUP)) {
      return text;
    }
    char[] c = text.toCharArray();
    int i = 0;
    while (true) {
      int open = text.indexOf("{{", i);
      if (open < 0) {
        return new String(c);
      }
      int p = open + 2;
      int q = p < c.length && c[p] == '-' ? p + 1 : p;
      while (q < c.length && Character.isWhitespace(c[q])) {
        q++;
      }
      if (text.startsWith("/*", q)) {
        int end = text.indexOf("*/", q + 2);
        i = end < 0 ? c.length : end + 2;
        continue;
      }
      i = scanAction(c, p);
    }
  }

  /** Scans one action from just after its {@code {{}; returns the index after its {@code }}}. */
  private static int scanAction(char[] c, int from) {
    int p = from;
    while (p < c.length) {
      char ch = c[p];
      if (ch == '"' || ch == '\'' || ch == '`') {
        p = skipLiteral(c, p);
      } else if (ch == '}' && p + 1 < c.length && c[p + 1] == '}') {
        return p + 2;
      } else if (isLookupCall(c, p)) {
        int end = callEnd(c, p + LOOKUP.length());
        for (int k = p; k < end; k++) {
          if (c[k] != '\n' && c[k] != '\r') {
            c[k] = k - p < EMPTY_DICT.length() ? EMPTY_DICT.charAt(k - p) : ' ';
          }
        }
        p = end;
      } else {
        p++;
      }
    }
    return c.length;
  }

  /** {@code lookup} as a function name: not part of a longer word, a field or a variable. */
  private static boolean isLookupCall(char[] c, int p) {
    if (p + LOOKUP.length() > c.length || !new String(c, p, LOOKUP.length()).equals(LOOKUP)) {
      return false;
    }
    if (p > 0 && (Character.isLetterOrDigit(c[p - 1]) || c[p - 1] == '_' || c[p - 1] == '.' || c[p - 1] == '$')) {
      return false;
    }
    int after = p + LOOKUP.length();
    return after == c.length || Character.isWhitespace(c[after]) || c[after] == ')' || c[after] == '}';
  }

  /**
   * Where a call that starts with its arguments at {@code from} ends: at the {@code )} that closes an
   * enclosing parenthesis, at a pipe, or at the end of the action (before a {@code -} trim marker).
   */
  private static int callEnd(char[] c, int from) {
    int depth = 0;
    int p = from;
    while (p < c.length) {
      char ch = c[p];
      if (ch == '"' || ch == '\'' || ch == '`') {
        p = skipLiteral(c, p);
        continue;
      }
      if (ch == '(') {
        depth++;
      } else if (ch == ')') {
        if (depth == 0) {
          return p;
        }
        depth--;
      } else if (ch == '|' && depth == 0) {
        return p;
      } else if (ch == '}' && p + 1 < c.length && c[p + 1] == '}') {
        boolean trim = p >= 2 && c[p - 1] == '-' && Character.isWhitespace(c[p - 2]);
        return trim ? p - 1 : p;
      }
      p++;
    }
    return c.length;
  }

  /** Skips a string, raw string or character literal; returns the index after it. */
  private static int skipLiteral(char[] c, int start) {
    char quote = c[start];
    int p = start + 1;
    while (p < c.length && c[p] != quote) {
      p += quote != '`' && c[p] == '\\' ? 2 : 1;
    }
    return Math.min(p + 1, c.length);
  }
}
