package io.hooklens.core.engine;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A rule with its checked metadata, messages and default parameters. */
public final class RuleDescriptor {
  private static final String DOCS_BASE = "https://github.com/hooklens/hooklens/blob/main/docs/rules/";

  private final Rule rule;
  private final String id;
  private final String name;
  private final String summary;
  private final Severity severity;
  private final String remediation;
  private final Map<String, String> messages;
  private final Class<? extends Record> paramsType;
  private final boolean fixable;
  private final List<String> aliases;
  private Record defaultParams;

  RuleDescriptor(Rule rule, String id, String name, String summary, Severity severity, String remediation,
      Map<String, String> messages, Class<? extends Record> paramsType, boolean fixable, List<String> aliases) {
    this.rule = rule;
    this.id = id;
    this.name = name;
    this.summary = summary;
    this.severity = severity;
    this.remediation = remediation;
    this.messages = messages;
    this.paramsType = paramsType;
    this.fixable = fixable;
    this.aliases = aliases;
  }

  /** The descriptor of a rule from its {@link RuleInfo}, checked. */
  static RuleDescriptor of(Rule rule) {
    RuleInfo info = rule.getClass().getAnnotation(RuleInfo.class);
    if (info == null) {
      throw new IllegalArgumentException(rule.getClass().getName() + " has no @RuleInfo");
    }
    String where = info.id() + " (" + rule.getClass().getSimpleName() + ")";
    if (!info.id().matches("HL\\d{3}")) {
      throw new IllegalArgumentException(where + ": id must look like HL123");
    }
    if (!info.name().matches("[a-z0-9]+(-[a-z0-9]+)*")) {
      throw new IllegalArgumentException(where + ": name must be kebab-case");
    }
    if (info.summary().isBlank() || info.summary().endsWith(".")) {
      throw new IllegalArgumentException(where + ": summary must be one line without a final period");
    }
    if (!info.remediation().endsWith(".")) {
      throw new IllegalArgumentException(where + ": remediation must end with a period");
    }
    if (info.messages().length == 0) {
      throw new IllegalArgumentException(where + ": declares no messages");
    }
    Map<String, String> messages = new LinkedHashMap<>();
    for (Message m : info.messages()) {
      if (messages.put(m.id(), m.text()) != null) {
        throw new IllegalArgumentException(where + ": message id " + m.id() + " declared twice");
      }
    }
    RuleDescriptor d = new RuleDescriptor(rule, info.id(), info.name(), info.summary(), info.severity(),
        info.remediation(), messages, info.params(), info.fixable(), List.of(info.aliases()));
    // Refuses parameters without valid defaults at registration rather than at the first lint.
    d.defaultParams();
    return d;
  }

  public Rule rule() {
    return rule;
  }

  public String id() {
    return id;
  }

  public String name() {
    return name;
  }

  public String summary() {
    return summary;
  }

  public Severity severity() {
    return severity;
  }

  public String remediation() {
    return remediation;
  }

  public List<String> aliases() {
    return aliases;
  }

  /** Whether the rule's findings may carry fixes. */
  public boolean fixable() {
    return fixable;
  }

  public Map<String, String> messages() {
    return messages;
  }

  public Class<? extends Record> paramsType() {
    return paramsType;
  }

  /** Built on first use: most rules take no parameters, and binding a record's takes reflection. */
  public Record defaultParams() {
    if (defaultParams == null) {
      defaultParams = Params.defaults(paramsType);
    }
    return defaultParams;
  }

  /** The rule's documentation page. */
  public String docsUrl() {
    return DOCS_BASE + id + ".md";
  }

  /** The family a rule belongs to, from its id. */
  public String family() {
    return switch (id.charAt(2)) {
      case '0' -> "Input and suppressions";
      case '1' -> "Container lifecycle hooks";
      case '2' -> "Helm hooks";
      case '3' -> "OpenShift DeploymentConfig hooks";
      default -> "Grace period and hook budgets";
    };
  }

  /** Whether an id or pattern such as {@code HL4xx} names this rule. */
  public boolean matches(String pattern) {
    if (pattern.equalsIgnoreCase(id)) {
      return true;
    }
    for (String alias : aliases) {
      if (pattern.equalsIgnoreCase(alias)) {
        return true;
      }
    }
    String p = pattern.toUpperCase(java.util.Locale.ROOT);
    if (p.length() == 5 && p.startsWith("HL")) {
      for (int i = 2; i < 5; i++) {
        char c = p.charAt(i);
        if (c != 'X' && c != id.charAt(i)) {
          return false;
        }
      }
      return true;
    }
    return pattern.equalsIgnoreCase(name);
  }
}
