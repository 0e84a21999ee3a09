package io.hooklens.core.engine;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A rule with its checked metadata, messages and default parameters. */
public final class RuleDescriptor {
  private static final String DOCS_BASE = "https://github.com/hooklens/hooklens/blob/main/docs/rules/";

  private final Rule rule;
  private final RuleInfo info;
  private final Map<String, String> messages = new LinkedHashMap<>();
  private final Record defaultParams;

  RuleDescriptor(Rule rule) {
    this.rule = rule;
    this.info = rule.getClass().getAnnotation(RuleInfo.class);
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
    for (Message m : info.messages()) {
      if (messages.put(m.id(), m.text()) != null) {
        throw new IllegalArgumentException(where + ": message id " + m.id() + " declared twice");
      }
    }
    this.defaultParams = Params.defaults(info.params());
  }

  public Rule rule() {
    return rule;
  }

  public String id() {
    return info.id();
  }

  public String name() {
    return info.name();
  }

  public String summary() {
    return info.summary();
  }

  public Severity severity() {
    return info.severity();
  }

  public String remediation() {
    return info.remediation();
  }

  public List<String> aliases() {
    return List.of(info.aliases());
  }

  /** Whether the rule's findings may carry fixes. */
  public boolean fixable() {
    return info.fixable();
  }

  public Map<String, String> messages() {
    return messages;
  }

  public Class<? extends Record> paramsType() {
    return info.params();
  }

  public Record defaultParams() {
    return defaultParams;
  }

  /** The rule's documentation page. */
  public String docsUrl() {
    return DOCS_BASE + info.id() + ".md";
  }

  /** The family a rule belongs to, from its id. */
  public String family() {
    return switch (info.id().charAt(2)) {
      case '0' -> "Input and suppressions";
      case '1' -> "Container lifecycle hooks";
      case '2' -> "Helm hooks";
      case '3' -> "OpenShift DeploymentConfig hooks";
      default -> "Grace period and hook budgets";
    };
  }

  /** Whether an id or pattern such as {@code HL4xx} names this rule. */
  public boolean matches(String pattern) {
    if (pattern.equalsIgnoreCase(info.id())) {
      return true;
    }
    for (String alias : info.aliases()) {
      if (pattern.equalsIgnoreCase(alias)) {
        return true;
      }
    }
    String p = pattern.toUpperCase(java.util.Locale.ROOT);
    if (p.length() == 5 && p.startsWith("HL")) {
      for (int i = 2; i < 5; i++) {
        char c = p.charAt(i);
        if (c != 'X' && c != info.id().charAt(i)) {
          return false;
        }
      }
      return true;
    }
    return pattern.equalsIgnoreCase(info.name());
  }
}
