package io.hooklens.core.engine;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * The rules' {@link RuleInfo} metadata as the build writes it beside the classes, read as one small file at
 * start instead of parsing every rule's annotations. The annotations stay the one source: the build writes
 * this file from them, and a rule missing from it is read from its annotation.
 */
public final class RuleInfoIndex {
  /** Where the index lives on the class path. */
  public static final String RESOURCE = "io/hooklens/core/engine/rule-info.properties";
  private static final Properties INDEX = load();

  private RuleInfoIndex() {}

  private static Properties load() {
    Properties p = new Properties();
    try (InputStream in = RuleInfoIndex.class.getClassLoader().getResourceAsStream(RESOURCE)) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the rule index " + RESOURCE, e);
    }
    return p;
  }

  /** The rule's descriptor from the index, or from its annotation when the index does not list it. */
  static RuleDescriptor descriptor(Rule rule) {
    String key = rule.getClass().getName() + ".";
    String id = INDEX.getProperty(key + "id");
    return id == null ? RuleDescriptor.of(rule) : indexed(rule, key, id);
  }

  /** The indexed descriptor of a rule, null when the index does not list it. */
  static RuleDescriptor indexed(Rule rule) {
    String key = rule.getClass().getName() + ".";
    String id = INDEX.getProperty(key + "id");
    return id == null ? null : indexed(rule, key, id);
  }

  /** How many rules the index lists. */
  static int size() {
    return (int) INDEX.stringPropertyNames().stream().filter(k -> k.endsWith(".id")).count();
  }

  private static RuleDescriptor indexed(Rule rule, String key, String id) {
    Map<String, String> messages = new LinkedHashMap<>();
    for (String m : split(INDEX.getProperty(key + "messages"))) {
      messages.put(m, INDEX.getProperty(key + "message." + m));
    }
    String params = INDEX.getProperty(key + "params");
    Class<? extends Record> paramsType;
    try {
      paramsType = params.equals(NoParams.class.getName()) ? NoParams.class
          : Class.forName(params, false, rule.getClass().getClassLoader()).asSubclass(Record.class);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("the rule index names a missing class " + params, e);
    }
    return new RuleDescriptor(rule, id, INDEX.getProperty(key + "name"), INDEX.getProperty(key + "summary"),
        Severity.valueOf(INDEX.getProperty(key + "severity")), INDEX.getProperty(key + "remediation"), messages,
        paramsType, Boolean.parseBoolean(INDEX.getProperty(key + "fixable")),
        split(INDEX.getProperty(key + "aliases")));
  }

  private static List<String> split(String list) {
    return list.isEmpty() ? List.of() : List.of(list.split(","));
  }

  /** The index of these rules, each checked as the registry checks it, in the form {@link #RESOURCE} holds. */
  public static String write(List<? extends Rule> rules) {
    Properties p = new Properties();
    for (Rule rule : rules) {
      RuleDescriptor d = RuleDescriptor.of(rule);
      String key = rule.getClass().getName() + ".";
      p.setProperty(key + "id", d.id());
      p.setProperty(key + "name", d.name());
      p.setProperty(key + "summary", d.summary());
      p.setProperty(key + "severity", d.severity().name());
      p.setProperty(key + "remediation", d.remediation());
      p.setProperty(key + "params", d.paramsType().getName());
      p.setProperty(key + "fixable", Boolean.toString(d.fixable()));
      p.setProperty(key + "aliases", String.join(",", d.aliases()));
      p.setProperty(key + "messages", String.join(",", d.messages().keySet()));
      d.messages().forEach((m, text) -> p.setProperty(key + "message." + m, text));
    }
    StringWriter out = new StringWriter();
    try {
      p.store(out, null);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // Sorted, without the date line store writes first, so that the same rules give the same file.
    return out.toString().lines().filter(l -> !l.startsWith("#")).sorted().collect(Collectors.joining("\n", "", "\n"));
  }
}
