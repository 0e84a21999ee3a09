package io.hooklens.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hooklens.app.ConfigResolver;
import io.hooklens.app.HookTargets;
import io.hooklens.core.engine.Linter;
import io.hooklens.core.model.helm.HelmEvent;
import io.hooklens.core.model.helm.HookPlan;
import io.hooklens.core.text.Printable;
import io.hooklens.core.yaml.TemplateMask;
import io.hooklens.rules.BuiltInRules;
import io.hooklens.run.Origin;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.TypeConversionException;

public final class HooksCommand implements Callable<Integer> {
  /** The name that runs this command. */
  static final String NAME = "hooks";

  /** Output formats. */
  enum Format { text, json }

  private CommandSpec spec;
  Path target;
  String event;
  final ChartValues values = new ChartValues();
  Format format;

  private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  /** A hook at its place, with the file and line it comes from. */
  private record Row(int position, HookPlan.Step step, Origin source) {}

  /** This command's model. */
  CommandSpec spec() {
    spec = Specs.command(NAME, this);
    spec.usageMessage()
        .sortOptions(false)
        .header("Prints the order in which Helm runs a chart's hooks.")
        .description("Event by event, each hook with its weight, delete policies, whether Helm waits for "
            + "it, and where it comes from.")
        .exitCodeListHeading("%nExit codes:%n")
        .exitCodeList(Specs.exitCodes(
            "0:the plan was printed",
            "2:usage error, bad configuration, or a chart or file that cannot be read",
            "3:internal error"));
    spec.addPositional(Specs.positional(Path.class, () -> target, v -> target = v).index("0").paramLabel("CHART|FILE")
        .description("A chart directory (or its Chart.yaml), rendered with Helm; or a rendered manifest "
            + "file, such as helm template output.").build());
    spec.addOption(Specs.option(String.class, () -> event, v -> event = v, "--event")
        .paramLabel("EVENT").converters(new EventConverter())
        .description("Only this event: pre-install, post-install, pre-delete, post-delete, pre-upgrade, "
            + "post-upgrade, pre-rollback, post-rollback or test.").build());
    values.addTo(spec);
    spec.addOption(Specs.option(Format.class, () -> format, v -> format = v, "-f", "--format")
        .paramLabel("FORMAT").defaultValue("text")
        .description("Output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).").build());
    return Specs.withHelp(spec);
  }

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    if (!values.valid(err)) {
      return ExitCodes.USAGE;
    }
    HookTargets.Target planned;
    try {
      planned = new HookTargets(new Linter(BuiltInRules.registry())).namedForPlan(target, values.values());
    } catch (HookTargets.Unavailable | ConfigResolver.ConfigException e) {
      err.println("hooklens: " + e.getMessage());
      return ExitCodes.USAGE;
    }
    // A chart Helm rendered in part: its plan lacks what the missing part would add.
    planned.notes().forEach(n -> err.println("hooklens: " + Printable.line(n)));
    err.flush();
    Map<String, List<Row>> plan = new LinkedHashMap<>();
    for (HookPlan.Event e : HookPlan.of(planned.doc())) {
      if (event != null && !event.equals(e.name())) {
        continue;
      }
      List<Row> rows = new ArrayList<>();
      for (HookPlan.Step s : e.steps()) {
        rows.add(new Row(rows.size() + 1, s, planned.origin(s.source())));
      }
      plan.put(e.name(), rows);
    }
    PrintWriter out = spec.commandLine().getOut();
    if (format == Format.json) {
      out.println(json(plan));
    } else {
      text(plan, out);
    }
    out.flush();
    return ExitCodes.CLEAN;
  }

  /** A name as a template writes it, for a chart read from its templates: each masked action shown as {{…}}. */
  private static String shown(String name) {
    return name.replaceAll(TemplateMask.PLACEHOLDER + "+", "{{…}}");
  }

  private static void text(Map<String, List<Row>> plan, PrintWriter out) {
    boolean any = false;
    for (Map.Entry<String, List<Row>> e : plan.entrySet()) {
      List<Row> rows = e.getValue();
      if (rows.isEmpty()) {
        continue;
      }
      if (any) {
        out.println();
      }
      any = true;
      List<String[]> cells = new ArrayList<>();
      cells.add(new String[] {"#", "HOOK", "WEIGHT", "DELETE POLICY", "WAITS", "SOURCE"});
      for (Row r : rows) {
        HookPlan.Step s = r.step();
        String policies = s.deletePolicies().isEmpty() ? "none" : String.join(",", s.deletePolicyNames());
        // Names and policies come from the manifest; escaped before the columns are measured.
        String source = r.source().file() + ":" + (r.source().position().line() + 1);
        cells.add(new String[] {String.valueOf(r.position()), Printable.line(s.kind() + "/" + shown(s.name())),
            String.valueOf(s.weight()), Printable.line(s.defaultPolicy() ? policies + " (default)" : policies),
            s.awaited() ? "yes" : "no", Printable.line(source)});
      }
      out.println(Printable.line(e.getKey()));
      int[] width = new int[cells.get(0).length];
      for (String[] row : cells) {
        for (int i = 0; i < row.length; i++) {
          width[i] = Math.max(width[i], row[i].length());
        }
      }
      for (String[] row : cells) {
        StringBuilder line = new StringBuilder(" ");
        for (int i = 0; i < row.length; i++) {
          // Numbers (position and weight) line up on the right, words on the left.
          String pad = " ".repeat(width[i] - row[i].length());
          line.append(' ').append(i == 0 || i == 2 ? pad + row[i] : row[i] + pad).append(' ');
        }
        out.println(line.toString().stripTrailing());
      }
    }
    if (!any) {
      out.println(plan.size() == 1 ? "No " + plan.keySet().iterator().next() + " hooks." : "No hooks.");
    }
  }

  private String json(Map<String, List<Row>> plan) {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("version", 1);
    root.putObject("tool").put("name", "hooklens").put("version", HooklensCommand.version());
    root.put("source", target.toString());
    ArrayNode events = root.putArray("events");
    for (Map.Entry<String, List<Row>> e : plan.entrySet()) {
      ObjectNode en = events.addObject();
      en.put("event", e.getKey());
      ArrayNode hooks = en.putArray("hooks");
      for (Row r : e.getValue()) {
        HookPlan.Step s = r.step();
        ObjectNode h = hooks.addObject();
        h.put("position", r.position());
        h.put("kind", s.kind());
        h.put("name", shown(s.name()));
        h.put("weight", s.weight());
        ArrayNode policies = h.putArray("deletePolicies");
        s.deletePolicyNames().forEach(policies::add);
        h.put("defaultDeletePolicy", s.defaultPolicy());
        h.put("waits", s.awaited());
        h.putObject("source")
            .put("file", r.source().file())
            .put("line", r.source().position().line() + 1)
            .put("column", r.source().position().column() + 1);
      }
    }
    return root.toPrettyString();
  }

  /** Reads {@code --event}: one of Helm's events, {@code test-success} read as {@code test}. */
  static final class EventConverter implements ITypeConverter<String> {
    @Override
    public String convert(String value) {
      String v = value.trim().toLowerCase(Locale.ROOT);
      HelmEvent e = HelmEvent.parse(v);
      if (e == null) {
        throw new TypeConversionException("must be one of " + String.join(", ", HelmEvent.NAMES) + ", not \""
            + value + "\"");
      }
      return e.annotation();
    }
  }
}
