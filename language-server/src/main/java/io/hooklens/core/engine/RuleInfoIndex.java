package io.hooklens.core.engine;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The rules' {@link RuleInfo} metadata as the build writes it beside the classes, read as one small file at
 * start instead of parsing every rule's annotations. The annotations stay the one source: the build writes
 * this file from them, and a rule missing from it is read from its annotation.
 *
 * <p>A line is a key, a tab and the value, with backslash, tab, line feed and carriage return escaped: it is read
 * with a few string searches, where {@link java.util.Properties} took a third of the registry's start reading
 * the same text character by character.
 */
public final class RuleInfoIndex {
  /** Where the index lives on the class path. */
  public static final String RESOURCE = "io/hooklens/core/engine/rule-info.tsv";
  private static final Map<String, String> INDEX = load();

  private RuleInfoIndex() {}

  private static Map<String, String> load() {
    try (InputStream in = RuleInfoIndex.class.getClassLoader().getResourceAsStream(RESOURCE)) {
      return in == null ? Map.of() : parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the rule index " + RESOURCE, e);
    }
  }

  /** The keys and values of text in the form {@link #format} writes. */
  static Map<String, String> parse(String text) {
    Map<String, String> index = new HashMap<>();
    for (int start = 0, end; start < text.length(); start = end + 1) {
      end = text.indexOf('\n', start);
      end = end < 0 ? text.length() : end;
      int tab = text.indexOf('\t', start);
      if (tab < 0 || tab > end) {
        throw new IllegalStateException("the rule index " + RESOURCE + " has a line without a tab: "
            + text.substring(start, end));
      }
      index.put(text.substring(start, tab), unescape(text.substring(tab + 1, end)));
    }
    return index;
  }

  /** The rule's descriptor from the index, or from its annotation when the index does not list it. */
  static RuleDescriptor descriptor(Rule rule) {
    String key = rule.getClass().getName() + ".";
    String id = INDEX.get(key + "id");
    return id == null ? RuleDescriptor.of(rule) : indexed(rule, key, id);
  }

  /** The indexed descriptor of a rule, null when the index does not list it. */
  static RuleDescriptor indexed(Rule rule) {
    String key = rule.getClass().getName() + ".";
    String id = INDEX.get(key + "id");
    return id == null ? null : indexed(rule, key, id);
  }

  /** How many rules the index lists. */
  static int size() {
    return (int) INDEX.keySet().stream().filter(k -> k.endsWith(".id")).count();
  }

  private static RuleDescriptor indexed(Rule rule, String key, String id) {
    Map<String, String> messages = new LinkedHashMap<>();
    for (String m : split(INDEX.get(key + "messages"))) {
      messages.put(m, INDEX.get(key + "message." + m));
    }
    String params = INDEX.get(key + "params");
    Class<? extends Record> paramsType;
    try {
      paramsType = params.equals(NoParams.class.getName()) ? NoParams.class
          : Class.forName(params, false, rule.getClass().getClassLoader()).asSubclass(Record.class);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("the rule index names a missing class " + params, e);
    }
    return new RuleDescriptor(rule, id, INDEX.get(key + "name"), INDEX.get(key + "summary"),
        Severity.valueOf(INDEX.get(key + "severity")), INDEX.get(key + "remediation"), messages,
        paramsType, Boolean.parseBoolean(INDEX.get(key + "fixable")),
        split(INDEX.get(key + "aliases")));
  }

  private static List<String> split(String list) {
    return list.isEmpty() ? List.of() : List.of(list.split(","));
  }

  /** The index of these rules, each checked as the registry checks it, in the form {@link #RESOURCE} holds. */
  public static String write(List<? extends Rule> rules) {
    Map<String, String> p = new HashMap<>();
    for (Rule rule : rules) {
      RuleDescriptor d = RuleDescriptor.of(rule);
      String key = rule.getClass().getName() + ".";
      p.put(key + "id", d.id());
      p.put(key + "name", d.name());
      p.put(key + "summary", d.summary());
      p.put(key + "severity", d.severity().name());
      p.put(key + "remediation", d.remediation());
      p.put(key + "params", d.paramsType().getName());
      p.put(key + "fixable", Boolean.toString(d.fixable()));
      p.put(key + "aliases", String.join(",", d.aliases()));
      p.put(key + "messages", String.join(",", d.messages().keySet()));
      d.messages().forEach((m, text) -> p.put(key + "message." + m, text));
    }
    return format(p);
  }

  /** Keys without a tab or line break and their values, a line each in key order. */
  static String format(Map<String, String> entries) {
    return new TreeMap<>(entries).entrySet().stream().map(e -> e.getKey() + "\t" + escape(e.getValue()))
        .collect(Collectors.joining("\n", "", "\n"));
  }

  private static String escape(String value) {
    StringBuilder b = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '\\' -> b.append("\\\\");
        case '\t' -> b.append("\\t");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        default -> b.append(c);
      }
    }
    return b.toString();
  }

  private static String unescape(String value) {
    if (value.indexOf('\\') < 0) {
      return value;
    }
    StringBuilder b = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '\\' && i + 1 < value.length()) {
        char n = value.charAt(++i);
        b.append(n == 't' ? '\t' : n == 'n' ? '\n' : n == 'r' ? '\r' : n);
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }
}
