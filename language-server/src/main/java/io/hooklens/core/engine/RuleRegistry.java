package io.hooklens.core.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The known rules, sorted by id. Refuses duplicate ids, names and aliases at registration. */
public final class RuleRegistry {
  private final List<RuleDescriptor> rules;
  private final Map<String, RuleDescriptor> byKey = new HashMap<>();
  /** Ids, names and aliases as written, which name their rule without comparing with every rule. */
  private final Set<String> exactKeys = new HashSet<>();
  /** Whether every id, name and alias is ASCII, whose case {@link #byKey} folds as equalsIgnoreCase does. */
  private boolean asciiKeys = true;

  public RuleRegistry(List<? extends Rule> rules) {
    List<RuleDescriptor> list = new ArrayList<>();
    for (Rule r : rules) {
      RuleDescriptor d = RuleInfoIndex.descriptor(r);
      claim(d.id(), d);
      claim(d.name(), d);
      for (String alias : d.aliases()) {
        claim(alias, d);
      }
      list.add(d);
    }
    list.sort((a, b) -> a.id().compareTo(b.id()));
    this.rules = Collections.unmodifiableList(list);
  }

  private void claim(String key, RuleDescriptor d) {
    exactKeys.add(key);
    asciiKeys &= ascii(key);
    RuleDescriptor old = byKey.put(key.toUpperCase(java.util.Locale.ROOT), d);
    if (old != null) {
      throw new IllegalArgumentException("rule key " + key + " is used by both " + old.rule().getClass().getName()
          + " and " + d.rule().getClass().getName());
    }
  }

  public List<RuleDescriptor> all() {
    return rules;
  }

  /** Looks a rule up by id, alias or name, any case. */
  public Optional<RuleDescriptor> find(String key) {
    return Optional.ofNullable(byKey.get(key.trim().toUpperCase(java.util.Locale.ROOT)));
  }

  /** Whether an id, alias, name or pattern such as {@code HL4xx} names at least one rule. */
  public boolean knows(String pattern) {
    if (exactKeys.contains(pattern)) {
      return true;
    }
    String key = pattern.toUpperCase(java.util.Locale.ROOT);
    boolean wildcard = key.length() == 5 && key.startsWith("HL");
    if (!wildcard && asciiKeys && ascii(pattern)) {
      // One look-up rather than comparing with every rule's id, aliases and name, ignoring case.
      return byKey.containsKey(key);
    }
    return rules.stream().anyMatch(d -> d.matches(pattern));
  }

  private static boolean ascii(String s) {
    return s.chars().allMatch(c -> c < 0x80);
  }
}
