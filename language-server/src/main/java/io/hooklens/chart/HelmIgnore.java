package io.hooklens.chart;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A chart's {@code .helmignore} as Helm 3 applies it when it loads a chart from a directory (its
 * {@code ignore} package): rules in file order, each a {@code filepath.Match} glob on the path relative
 * to the chart ({@code /foo}, {@code a/b*}) or, without a slash, on the last path element; {@code !} and
 * a trailing {@code /} as Helm reads them; then Helm's default rule {@code templates/.?*}. Helm's
 * quirks are kept, since what it loads is what it renders: a negated rule ignores every path it does
 * not match.
 */
final class HelmIgnore {
  private record Rule(Pattern glob, boolean negate, boolean mustDir, boolean baseName) {
    boolean matches(String path) {
      String name = baseName ? path.substring(path.lastIndexOf('/') + 1) : path;
      return glob.matcher(name).matches();
    }
  }

  /** The longest line Go's line scanner reads; Helm fails on a longer one. */
  private static final int MAX_LINE = 64 * 1024;

  private final List<Rule> rules;

  private HelmIgnore(List<Rule> rules) {
    this.rules = rules;
  }

  /**
   * The rules of a {@code .helmignore} text (null when the chart has none), or empty when Helm would
   * refuse the file ({@code **}, a malformed glob) or a glob has a form this class does not translate.
   */
  static Optional<HelmIgnore> parse(String text) {
    List<Rule> rules = new ArrayList<>();
    if (text != null) {
      for (String line : text.split("\n", -1)) {
        if (line.length() > MAX_LINE || !add(rules, line.strip())) {
          return Optional.empty();
        }
      }
    }
    add(rules, "templates/.?*");
    return Optional.of(new HelmIgnore(List.copyOf(rules)));
  }

  private static boolean add(List<Rule> rules, String line) {
    if (line.isEmpty() || line.startsWith("#")) {
      return true;
    }
    if (line.contains("**") || glob(line) == null) {
      return false;
    }
    String rule = line;
    boolean negate = rule.startsWith("!");
    if (negate) {
      rule = rule.substring(1);
    }
    boolean mustDir = rule.endsWith("/");
    if (mustDir) {
      rule = rule.substring(0, rule.length() - 1);
    }
    boolean rooted = rule.startsWith("/");
    if (rooted) {
      rule = rule.substring(1);
    }
    Pattern glob = glob(rule);
    if (glob == null) {
      return false;
    }
    rules.add(new Rule(glob, negate, mustDir, !rooted && !rule.contains("/")));
    return true;
  }

  /** Whether Helm leaves out a path relative to the chart ({@code templates/job.yaml}), a file or a folder. */
  boolean ignores(String path, boolean directory) {
    for (Rule r : rules) {
      if (r.negate()) {
        if (r.mustDir() && !directory || !r.matches(path)) {
          return true;
        }
      } else if ((!r.mustDir() || directory) && r.matches(path)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Go's {@code filepath.Match} glob as a regular expression: {@code *} and {@code ?} never match a
   * slash, {@code [^a-z]} classes, backslash escapes. Null for a malformed glob.
   */
  private static Pattern glob(String glob) {
    StringBuilder re = new StringBuilder();
    int[] cps = glob.codePoints().toArray();
    int i = 0;
    while (i < cps.length) {
      int c = cps[i];
      if (c == '*') {
        re.append("[^/]*");
        i++;
      } else if (c == '?') {
        re.append("[^/]");
        i++;
      } else if (c == '\\') {
        if (i + 1 >= cps.length) {
          return null;
        }
        re.append(literal(cps[i + 1]));
        i += 2;
      } else if (c == '[') {
        i = charClass(cps, i + 1, re);
        if (i < 0) {
          return null;
        }
      } else {
        re.append(literal(c));
        i++;
      }
    }
    try {
      return Pattern.compile(re.toString(), Pattern.DOTALL);
    } catch (PatternSyntaxException e) {
      return null;
    }
  }

  /** Appends a class that starts after its {@code [}; returns the index after its {@code ]}, or -1. */
  private static int charClass(int[] cps, int from, StringBuilder re) {
    int i = from;
    re.append('[');
    if (i < cps.length && cps[i] == '^') {
      re.append('^');
      i++;
    }
    int ranges = 0;
    while (true) {
      if (i < cps.length && cps[i] == ']' && ranges > 0) {
        re.append(']');
        return i + 1;
      }
      int[] lo = escaped(cps, i);
      if (lo == null) {
        return -1;
      }
      i = lo[1];
      re.append(literal(lo[0]));
      if (i < cps.length && cps[i] == '-') {
        int[] hi = escaped(cps, i + 1);
        if (hi == null) {
          return -1;
        }
        i = hi[1];
        re.append('-').append(literal(hi[0]));
      }
      ranges++;
    }
  }

  /** One class character as Go reads it ({@code -} and {@code ]} need a backslash): it and the next index. */
  private static int[] escaped(int[] cps, int i) {
    if (i >= cps.length || cps[i] == '-' || cps[i] == ']') {
      return null;
    }
    if (cps[i] == '\\') {
      return i + 1 < cps.length ? new int[] {cps[i + 1], i + 2} : null;
    }
    return new int[] {cps[i], i + 1};
  }

  private static String literal(int codePoint) {
    return "\\x{" + Integer.toHexString(codePoint) + "}";
  }
}
