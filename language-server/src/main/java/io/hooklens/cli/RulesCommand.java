package io.hooklens.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hooklens.core.engine.Param;
import io.hooklens.core.engine.RuleDescriptor;
import io.hooklens.core.engine.RuleRegistry;
import io.hooklens.rules.BuiltInRules;
import io.hooklens.rules.RuleIndex;
import java.io.PrintWriter;
import java.lang.reflect.RecordComponent;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;

public final class RulesCommand implements Callable<Integer> {
  /** The name that runs this command. */
  static final String NAME = "rules";

  /** Output formats of the rule list. */
  enum Format { text, md, json }

  private CommandSpec spec;
  String rule;
  Format format;

  /** This command's model. */
  CommandSpec spec() {
    spec = Specs.command(NAME, this);
    spec.usageMessage()
        .header("Lists the rules, or explains one.");
    spec.addPositional(Specs.positional(String.class, () -> rule, v -> rule = v).arity("0..1").required(false)
        .paramLabel("RULE")
        .description("A rule id or name, e.g. HL401.").build());
    spec.addOption(Specs.option(Format.class, () -> format, v -> format = v, "-f", "--format")
        .paramLabel("FORMAT").defaultValue("text")
        .description("Output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).").build());
    return Specs.withHelp(spec);
  }

  @Override
  public Integer call() {
    RuleRegistry registry = BuiltInRules.registry();
    PrintWriter out = spec.commandLine().getOut();
    List<RuleDescriptor> rules = registry.all();
    if (rule != null) {
      Optional<RuleDescriptor> d = registry.find(rule);
      if (d.isEmpty()) {
        spec.commandLine().getErr().println("hooklens: no rule \"" + rule + "\"; see hooklens rules");
        return ExitCodes.USAGE;
      }
      rules = List.of(d.get());
    }
    switch (format) {
      case md -> out.print(rule == null ? RuleIndex.markdown(registry) : explain(rules.get(0)));
      case json -> out.println(json(rules));
      case text -> {
        if (rule == null) {
          for (RuleDescriptor d : rules) {
            out.printf("%s  %-7s  %-44s %s%n", d.id(), d.severity().label(), d.name(), d.summary());
          }
        } else {
          out.print(explain(rules.get(0)));
        }
      }
    }
    out.flush();
    return ExitCodes.CLEAN;
  }

  private static String explain(RuleDescriptor d) {
    StringBuilder sb = new StringBuilder();
    sb.append(d.id()).append(' ').append(d.name()).append(" (").append(d.severity().label()).append(")\n\n")
        .append(d.summary()).append(".\n\n")
        .append("Fix: ").append(d.remediation()).append('\n');
    RecordComponent[] params = d.paramsType().getRecordComponents();
    if (params.length > 0) {
      sb.append("\nParameters (.hooklens.yaml: rules: {").append(d.id()).append(": {params: {...}}}):\n");
      for (RecordComponent c : params) {
        Param p = c.getAnnotation(Param.class);
        sb.append("  ").append(c.getName()).append(" (default ").append(p.defaultValue()).append("): ")
            .append(p.description()).append('\n');
      }
    }
    sb.append("\nDocs: ").append(d.docsUrl()).append('\n');
    return sb.toString();
  }

  private static String json(List<RuleDescriptor> rules) {
    ObjectMapper mapper = new ObjectMapper();
    ArrayNode arr = mapper.createArrayNode();
    for (RuleDescriptor d : rules) {
      ObjectNode n = arr.addObject();
      n.put("id", d.id());
      n.put("name", d.name());
      n.put("severity", d.severity().label());
      n.put("family", d.family());
      n.put("summary", d.summary());
      n.put("remediation", d.remediation());
      n.put("fixable", d.fixable());
      n.put("docs", d.docsUrl());
      ObjectNode params = n.putObject("params");
      for (RecordComponent c : d.paramsType().getRecordComponents()) {
        Param p = c.getAnnotation(Param.class);
        params.putObject(c.getName()).put("default", p.defaultValue()).put("description", p.description());
      }
    }
    return arr.toPrettyString();
  }
}
