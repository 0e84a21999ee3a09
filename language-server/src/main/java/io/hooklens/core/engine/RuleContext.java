package io.hooklens.core.engine;

import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.yaml.Range;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YamlDocument;
import java.util.ArrayList;
import java.util.List;

/** What a rule sees besides the document: targets, its parameters, and where to report. */
public final class RuleContext {
  private final RuleDescriptor rule;
  private final HookDocument doc;
  private final Config config;
  private final Record params;
  private final List<Finding> out;
  private final RuleRegistry registry;
  private final FindingPool pool;
  private Edits edits;

  RuleContext(RuleDescriptor rule, HookDocument doc, Config config, Record params, List<Finding> out,
      RuleRegistry registry, FindingPool pool) {
    this.registry = registry;
    this.pool = pool;
    this.rule = rule;
    this.doc = doc;
    this.config = config;
    this.params = params;
    this.out = out;
  }

  public Targets targets() {
    return config.targets();
  }

  /** Whether the file is a chart's that Helm could not render, linted in place of the rendered chart. */
  public boolean chartNotRendered() {
    return config.chartNotRendered();
  }

  /** Whether the chart being linted has a CustomResourceDefinition of this name in a crds/ directory. */
  public boolean chartHasCrd(String name) {
    return config.chartCrds().contains(name);
  }

  /** Whether an id, name or pattern such as {@code HL4xx} names a known rule. */
  public boolean isKnownRule(String pattern) {
    return registry.knows(pattern);
  }

  /** The rule's parameters; the type must be the one its {@link RuleInfo#params()} names. */
  public <P extends Record> P params(Class<P> type) {
    return type.cast(params);
  }

  /** The edit toolkit over this document's text, for building fixes. */
  public Edits edits() {
    if (edits == null) {
      edits = new Edits(doc.source(), doc.name().toLowerCase(java.util.Locale.ROOT).endsWith(".json"));
    }
    return edits;
  }

  /** Reports a declared message on a node, with the rule's default severity. */
  public Reported report(YNode at, String messageId, Object... args) {
    Resource r = doc.resourceOf(at);
    int document = r != null ? r.document() : documentAt(at.range());
    return add(at.range(), document, r, messageId, args);
  }

  /** Reports on a range that belongs to no node, such as a syntax error. */
  public Reported report(Range range, String messageId, Object... args) {
    return add(range, documentAt(range), null, messageId, args);
  }

  private int documentAt(Range range) {
    List<YamlDocument> docs = doc.parsed().documents();
    int lo = 0;
    int hi = docs.size() - 1;
    int found = 0;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (docs.get(mid).range().compareStart(range) <= 0) {
        found = docs.get(mid).index();
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }

  private Reported add(Range range, int document, Resource r, String messageId, Object[] args) {
    String template = rule.messages().get(messageId);
    if (template == null) {
      throw new IllegalStateException(rule.id() + " reported undeclared message " + messageId);
    }
    out.add(new Finding(rule.id(), rule.name(), rule.severity(), pool.text(format(template, args)), range, document,
        r == null ? null : pool.ref(r), List.of()));
    return new Reported(out.size() - 1);
  }

  static String format(String template, Object[] args) {
    StringBuilder sb = new StringBuilder(template.length() + 32);
    for (int i = 0; i < template.length(); i++) {
      char c = template.charAt(i);
      int close = c == '{' ? template.indexOf('}', i) : -1;
      if (close > i + 1) {
        String inner = template.substring(i + 1, close);
        if (inner.chars().allMatch(Character::isDigit)) {
          int n = Integer.parseInt(inner);
          if (n >= args.length) {
            throw new IllegalStateException("message \"" + template + "\" needs argument " + n);
          }
          sb.append(args[n]);
          i = close;
          continue;
        }
      }
      sb.append(c);
    }
    return sb.toString();
  }

  /** A finding just reported, to adjust before the rule returns. */
  public final class Reported {
    private final int index;

    Reported(int index) {
      this.index = index;
    }

    /** Overrides the rule's default severity for this finding (rules whose severity depends on target). */
    public Reported severity(Severity s) {
      out.set(index, out.get(index).withSeverity(s));
      return this;
    }

    /** Adds a related place, such as the grace period a budget is measured against. */
    public Reported related(YNode node, String message) {
      Finding f = out.get(index);
      List<Finding.Related> related = new ArrayList<>(f.related());
      related.add(new Finding.Related(node.range(), pool.text(message)));
      out.set(index, new Finding(f.ruleId(), f.ruleName(), f.severity(), f.message(), f.range(), f.document(),
          f.resource(), List.copyOf(related), f.fixes()));
      return this;
    }

    /**
     * Offers a fix built with {@link #edits()}, or nothing when it is null; no edits means the toolkit could not write it (a block
     * scalar, an empty map), and nothing is offered. A finding keeps at most one safe fix: when
     * several candidates exist, none of them is one the author certainly meant.
     */
    public Reported fix(Fix fix) {
      return fix == null ? this : fix(fix.title(), fix.safe(), fix.edits());
    }

    /** Offers a fix; see {@link #fix(Fix)}. */
    public Reported fix(String title, boolean safe, List<TextEdit> edits) {
      if (!rule.fixable()) {
        throw new IllegalStateException(rule.id() + " offered a fix but is not marked fixable");
      }
      if (edits.isEmpty()) {
        return this;
      }
      Finding f = out.get(index);
      if (safe && f.safeFix().isPresent()) {
        throw new IllegalStateException(rule.id() + " offered two safe fixes for one finding");
      }
      List<Fix> fixes = new ArrayList<>(f.fixes());
      fixes.add(new Fix(pool.text(title), safe, edits));
      out.set(index, f.withFixes(fixes));
      return this;
    }
  }
}
