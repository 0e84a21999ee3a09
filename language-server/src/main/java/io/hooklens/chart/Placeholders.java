package io.hooklens.chart;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Values Helm refused to render without, read from its message, and a values file that gives each a placeholder:
 * a {@code required} or {@code fail} whose message names the value ({@code .Values.password},
 * {@code 'image.repository'}) gets the text {@code placeholder}; a value a template reads through a map the
 * values do not have ({@code nil pointer evaluating interface {}.key}) gets the maps down to it, empty, so that
 * it reads as missing; a missing value a function needs as text ({@code wrong type for value; expected string})
 * gets the text.
 */
final class Placeholders {
  /**
   * A value to give.
   *
   * @param path its keys below {@code .Values}
   * @param map whether it is a map, given empty, rather than text
   */
  record Placeholder(List<String> path, boolean map) {
    /** {@code .Values.a.b}, as a template names it. */
    String name() {
      return ".Values." + String.join(".", path);
    }
  }

  static final String TEXT = "placeholder";

  private static final String KEY = "[A-Za-z_][\\w-]*";
  private static final Pattern EXECUTION_ERROR = Pattern.compile("execution error at \\([^)]*\\): (.*)", Pattern.DOTALL);
  private static final Pattern VALUES_PATH = Pattern.compile("\\.Values((?:\\." + KEY + ")+)");
  private static final Pattern QUOTED_PATH = Pattern.compile("['\"`](" + KEY + "(?:\\." + KEY + ")+)['\"`]");
  private static final Pattern NIL_MAP = Pattern.compile(
      "at <\\.Values((?:\\." + KEY + ")+)>: nil pointer evaluating interface \\{\\}\\.(" + KEY + ")");

  private static final Pattern MISSING_TEXT = Pattern.compile(
      "at <\\.Values((?:\\." + KEY + ")+)>: wrong type for value; expected string; got interface \\{\\}");

  private Placeholders() {}

  /** The values a message of Helm's says are missing; empty when it names none. */
  static List<Placeholder> named(String message) {
    List<Placeholder> out = new ArrayList<>();
    Matcher nil = NIL_MAP.matcher(message);
    if (nil.find()) {
      List<String> path = keys(nil.group(1));
      // Every map down to the value read, at once: a value a missing map holds is missing too.
      if (path.size() > 1 && path.contains(nil.group(2))) {
        out.add(new Placeholder(path.subList(0, path.size() - 1), true));
      }
      return out;
    }
    Matcher text = MISSING_TEXT.matcher(message);
    if (text.find()) {
      out.add(new Placeholder(keys(text.group(1)), false));
      return out;
    }
    Matcher error = EXECUTION_ERROR.matcher(message);
    if (!error.find()) {
      return out;
    }
    Matcher values = VALUES_PATH.matcher(error.group(1));
    while (values.find()) {
      out.add(new Placeholder(keys(values.group(1)), false));
    }
    if (out.isEmpty()) {
      Matcher quoted = QUOTED_PATH.matcher(error.group(1));
      while (quoted.find()) {
        out.add(new Placeholder(List.of(quoted.group(1).split("\\.")), false));
      }
    }
    return out;
  }

  private static List<String> keys(String dotted) {
    return List.of(dotted.substring(1).split("\\."));
  }

  /** A values file (JSON, which Helm reads as YAML) giving every placeholder; a deeper one wins over a shorter. */
  static String valuesFile(List<Placeholder> placeholders) {
    Map<String, Object> root = new LinkedHashMap<>();
    for (Placeholder p : placeholders) {
      Map<String, Object> at = root;
      for (int i = 0; i < p.path().size(); i++) {
        String key = p.path().get(i);
        boolean last = i == p.path().size() - 1;
        Object there = at.get(key);
        if (last) {
          if (!(there instanceof Map)) {
            at.put(key, p.map() ? new LinkedHashMap<String, Object>() : TEXT);
          }
        } else {
          if (!(there instanceof Map)) {
            there = new LinkedHashMap<String, Object>();
            at.put(key, there);
          }
          @SuppressWarnings("unchecked")
          Map<String, Object> next = (Map<String, Object>) there;
          at = next;
        }
      }
    }
    StringBuilder sb = new StringBuilder();
    json(root, sb);
    return sb.append('\n').toString();
  }

  private static void json(Object value, StringBuilder sb) {
    if (value instanceof Map<?, ?> map) {
      sb.append('{');
      String sep = "";
      for (Map.Entry<?, ?> e : map.entrySet()) {
        sb.append(sep).append('"').append(e.getKey()).append("\":");
        json(e.getValue(), sb);
        sep = ",";
      }
      sb.append('}');
    } else {
      sb.append('"').append(value).append('"');
    }
  }
}
