package io.hooklens.cli;

import io.hooklens.app.AtomicFiles;
import io.hooklens.app.BaselineFilter;
import io.hooklens.app.ClusterAudit;
import io.hooklens.app.ConfigResolver;
import io.hooklens.app.IoErrors;
import io.hooklens.app.Lint;
import io.hooklens.app.LintedFile;
import io.hooklens.cli.report.CheckstyleFormatter;
import io.hooklens.cli.report.FileResult;
import io.hooklens.cli.report.Formatter;
import io.hooklens.cli.report.GithubFormatter;
import io.hooklens.cli.report.JsonFormatter;
import io.hooklens.cli.report.JunitFormatter;
import io.hooklens.cli.report.Report;
import io.hooklens.cli.report.SarifFormatter;
import io.hooklens.cli.report.TextFormatter;
import io.hooklens.cli.report.Totals;
import io.hooklens.core.engine.LintResult;
import io.hooklens.core.engine.Linter;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.text.Printable;
import io.hooklens.rules.BuiltInRules;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;

public final class LintCommand implements Callable<Integer> {
  /** The name that runs this command. */
  static final String NAME = "lint";

  /** Output formats. */
  enum Format { text, json, sarif, junit, github, checkstyle }

  /** The lowest severity that fails the run. */
  enum FailOn { error, warning, info, never }

  private CommandSpec spec;
  List<String> paths = new ArrayList<>();
  String context;
  Path kubeconfig;
  boolean allNamespaces;
  Format format;
  FailOn failOn;
  Path config;
  final TargetOptions targets = new TargetOptions();
  Path output;
  String stdinFilename;
  final ChartValues values = new ChartValues();
  List<Path> valuesSets = new ArrayList<>();
  final ColorOption color = new ColorOption();
  boolean fix;
  Path baseline;
  Path writeBaseline;
  int jobs = Runtime.getRuntime().availableProcessors();
  boolean baselineReport;

  private boolean fixedStdin;

  /** This command's model. */
  CommandSpec spec() {
    spec = Specs.command(NAME, this);
    spec.usageMessage()
        .sortOptions(false)
        .header("Checks manifests for hook mistakes and reports them.")
        .exitCodeListHeading("%nExit codes:%n")
        .exitCodeList(Specs.exitCodes(
            "0:no findings at or above --fail-on (those a baseline records do not count)",
            "1:findings at or above --fail-on",
            "2:usage error, bad configuration, unreadable input, a bad baseline, or a report or baseline that cannot "
                + "be written; outranks 1 (the paths that can be read are still linted and reported)",
            "3:internal error"));
    spec.addPositional(Specs.positionals(String.class, () -> paths, v -> paths = v).paramLabel("PATH")
        .description("Files, directories (searched for .yaml, .yml and .json files, and for Helm charts) "
            + "or - for standard input. A directory with a Chart.yaml is rendered with Helm and linted as "
            + "a chart.").build());
    spec.addOption(Specs.option(String.class, () -> context, v -> context = v, "--context").paramLabel("NAME")
        .description("Also lint the workloads and Helm release hooks this kubeconfig context's cluster "
            + "serves, read only; findings are located at cluster://NAME/NAMESPACE/KIND/OBJECT. Kinds that "
            + "may not be read are named on standard error and make the exit code 2.").build());
    spec.addOption(Specs.option(Path.class, () -> kubeconfig, v -> kubeconfig = v, "--kubeconfig").paramLabel("FILE")
        .description("The kubeconfig for --context (default: $KUBECONFIG, then ~/.kube/config).").build());
    spec.addOption(Specs.option(boolean.class, () -> allNamespaces, v -> allNamespaces = v, "-A", "--all-namespaces")
        .description("With --context: read every namespace.").build());
    spec.addOption(Specs.option(Format.class, () -> format, v -> format = v, "-f", "--format")
        .paramLabel("FORMAT").defaultValue("text")
        .description("Output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).").build());
    spec.addOption(Specs.option(FailOn.class, () -> failOn, v -> failOn = v, "--fail-on")
        .paramLabel("SEVERITY").defaultValue("warning")
        .description("Exit with 1 when a finding is at least this severe: ${COMPLETION-CANDIDATES} "
            + "(default: ${DEFAULT-VALUE}).").build());
    spec.addOption(Specs.option(Path.class, () -> config, v -> config = v, "-c", "--config").paramLabel("FILE")
        .description("Use this configuration instead of the nearest .hooklens.yaml of each file.").build());
    targets.addTo(spec);
    spec.addOption(Specs.option(Path.class, () -> output, v -> output = v, "-o", "--output").paramLabel("FILE")
        .description("Write the report to FILE (atomically) instead of standard output.").build());
    spec.addOption(Specs.option(String.class, () -> stdinFilename, v -> stdinFilename = v, "--stdin-filename")
        .paramLabel("NAME").defaultValue("<stdin>")
        .description("Name to report for standard input; a .json name reads it as JSON.").build());
    values.addTo(spec);
    spec.addOption(Specs.list(Path.class, () -> valuesSets, v -> valuesSets = v, "--values-set").paramLabel("FILE")
        .description("For charts: also render with this values file on top of values.yaml (and the "
            + "--values files), as one more values set that findings name (repeatable).").build());
    color.addTo(spec);
    spec.addOption(Specs.option(boolean.class, () -> fix, v -> fix = v, "--fix")
        .description("Apply the fixes marked safe, changing each file's content only (not its owner, mode "
            + "or links), and report what is left. With - for standard input, the fixed text goes to "
            + "standard output and the report to standard error.").build());
    spec.addOption(Specs.option(Path.class, () -> baseline, v -> baseline = v, "--baseline").paramLabel("FILE")
        .description("Report only findings this baseline does not record (default: the configuration's "
            + "baseline, if any); the summary counts the others.").build());
    spec.addOption(Specs.option(Path.class, () -> writeBaseline, v -> writeBaseline = v, "--write-baseline")
        .paramLabel("FILE")
        .description("Record every finding in FILE (atomically), as a baseline for later runs, and report "
            + "none.").build());
    spec.addOption(Specs.option(int.class, () -> jobs, v -> jobs = v, "-j", "--jobs").paramLabel("N")
        .description("Lint up to N files and charts of a directory at once (default: the number of "
            + "processors); the report is the same, in the same order, whatever N.").build());
    spec.addOption(Specs.option(boolean.class, () -> baselineReport, v -> baselineReport = v, "--baseline-report")
        .description("List, on standard error, the baseline's entries that no finding matched in the files "
            + "linted, so that the baseline can be written again smaller.").build());
    return Specs.withHelp(spec);
  }

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    if (!values.valid(err) || !ChartValues.existing("--values-set", valuesSets, err)) {
      return ExitCodes.USAGE;
    }
    if (jobs < 1) {
      err.println("hooklens: --jobs must be at least 1, not " + jobs);
      return ExitCodes.USAGE;
    }
    Optional<String> clusterUsage = clusterUsage();
    if (clusterUsage.isPresent()) {
      err.println("hooklens: " + clusterUsage.get());
      return ExitCodes.USAGE;
    }
    Linter linter = new Linter(BuiltInRules.registry());
    // Each file's findings are written as soon as it is linted, and its model dropped. A report file is written
    // whole at the end; so is the report of a run that may fix standard input, which goes to standard error
    // when the fixed text takes standard output.
    boolean deferred = output != null || fix && paths.contains("-");
    StringWriter buffer = new StringWriter();
    PrintWriter target = deferred ? new PrintWriter(buffer) : spec.commandLine().getOut();
    Report report = new Report(formatter(), target, linter.registry(), HooklensCommand.version());
    Sink sink = new Sink(report, err);
    ConfigResolver configs = new ConfigResolver(linter.registry(), config);
    BaselineFilter baselines;
    try {
      baselines = baselines(configs, sink);
    } catch (BaselineFilter.BaselineException e) {
      err.println("hooklens: " + e.getMessage());
      return ExitCodes.USAGE;
    }
    Lint lint = new Lint(linter, configs, new Lint.Options(targets::apply,
        values.values(valuesSets), fix, jobs), baselines);
    try {
      // The paths between two - are linted side by side.
      List<Path> named = new ArrayList<>();
      for (String arg : paths) {
        if (arg.equals("-")) {
          lint.paths(named);
          named.clear();
          standardInput(lint, sink);
        } else {
          named.add(Path.of(arg));
        }
      }
      lint.paths(named);
      if (context != null) {
        audit(lint, baselines, sink);
      }
    } catch (ConfigResolver.ConfigException e) {
      err.println("hooklens: " + e.getMessage());
      return ExitCodes.USAGE;
    }
    Totals totals = report.finish(fix ? OptionalInt.of(sink.fixed) : OptionalInt.empty());
    int exit = sink.usage ? ExitCodes.USAGE : ExitCodes.CLEAN;
    exit = Math.max(exit, finishBaseline(baselines, err));
    if (deferred) {
      exit = Math.max(exit, writeReport(buffer.toString(), err));
    }
    sink.failures.forEach(err::println);
    if (!sink.failures.isEmpty()) {
      exit = ExitCodes.INTERNAL;
    }
    if (exit == ExitCodes.CLEAN && failOn != FailOn.never) {
      Severity threshold = Severity.parse(failOn.name());
      for (Severity s : Severity.values()) {
        if (s.compareTo(threshold) >= 0 && totals.count(s) > 0) {
          exit = ExitCodes.FINDINGS;
        }
      }
    }
    return exit;
  }

  /** Why the paths and cluster options do not go together, if they do not. */
  private Optional<String> clusterUsage() {
    if (paths.isEmpty() && context == null) {
      return Optional.of("lint needs a PATH or --context");
    }
    if (context == null && (kubeconfig != null || allNamespaces)) {
      return Optional.of("--kubeconfig and --all-namespaces go with --context");
    }
    return values.namespace != null && allNamespaces
        ? Optional.of("--namespace and --all-namespaces cannot be used together") : Optional.empty();
  }

  /** Lints what the cluster serves; a kind that could not be read is an input problem (exit 2). */
  private void audit(Lint lint, Lint.Sink notes, Sink sink) throws ConfigResolver.ConfigException {
    String namespace = allNamespaces ? ClusterAudit.ALL_NAMESPACES : values.namespace;
    if (ClusterAudit.context(context, kubeconfig, namespace, lint, notes) > 0) {
      sink.usage = true;
    }
  }

  /** The baseline the run holds findings against, or records them in. */
  private BaselineFilter baselines(ConfigResolver configs, Sink sink) throws BaselineFilter.BaselineException {
    if (baseline != null && writeBaseline != null) {
      throw new BaselineFilter.BaselineException("--baseline and --write-baseline cannot be used together");
    }
    if (writeBaseline != null) {
      return BaselineFilter.writing(writeBaseline, configs, sink);
    }
    return baseline != null ? BaselineFilter.of(baseline, configs, sink) : BaselineFilter.configured(configs, sink);
  }

  /** Writes the baseline recorded, or lists the stale entries when asked; a baseline not written is exit 2. */
  private int finishBaseline(BaselineFilter baselines, PrintWriter err) {
    if (writeBaseline != null) {
      try {
        int n = baselines.write();
        err.println("hooklens: wrote " + n + (n == 1 ? " finding" : " findings") + " to the baseline "
            + writeBaseline);
      } catch (IOException e) {
        err.println("hooklens: cannot write the baseline " + writeBaseline + ": " + IoErrors.reason(e));
        return ExitCodes.USAGE;
      }
    }
    if (baselineReport) {
      if (!baselines.used()) {
        err.println("hooklens: --baseline-report: no baseline was used");
      }
      List<BaselineFilter.Stale> stale = baselines.stale();
      for (BaselineFilter.Stale x : stale) {
        err.println("hooklens: stale baseline entry in " + x.baseline() + ": " + Printable.line(x.file()) + " "
            + x.rule() + (x.resource().isEmpty() ? "" : " " + Printable.line(x.resource()))
            + (x.path().isEmpty() ? "" : " at " + Printable.line(x.path()))
            + (x.count() > 1 ? " (" + x.count() + " times)" : "") + " is no longer found");
      }
      if (baselines.used()) {
        err.println("hooklens: " + stale.size()
            + (stale.size() == 1 ? " stale baseline entry" : " stale baseline entries")
            + (stale.isEmpty() ? "" : "; write the baseline again with --write-baseline to drop them"));
      }
    }
    return ExitCodes.CLEAN;
  }

  /** The terminal's part in a lint: findings into the report, the rest one line each on standard error. */
  private static final class Sink implements Lint.Sink {
    private final Report report;
    private final PrintWriter err;
    private final List<String> failures = new ArrayList<>();
    private boolean usage;
    private int fixed;

    Sink(Report report, PrintWriter err) {
      this.report = report;
      this.err = err;
    }

    @Override
    public void file(LintedFile f) {
      for (LintResult.RuleFailure x : f.result().failures()) {
        failures.add("hooklens: internal error: rule " + x.ruleId() + " failed on " + f.displayName() + ": "
            + x.error());
      }
      report.add(new FileResult(f.displayName(), f.result(), f.valuesSets(), f.baselined()));
    }

    @Override
    public void problem(String message) {
      usage = true;
      err.println("hooklens: " + message);
    }

    @Override
    public void note(String message) {
      err.println("hooklens: " + message);
    }

    @Override
    public void fixed(String name, int count) {
      fixed += count;
      note("fixed " + count + (count == 1 ? " problem" : " problems") + " in " + name);
    }
  }

  /** Lints standard input; fixed, its text goes to standard output. */
  private void standardInput(Lint lint, Sink sink) throws ConfigResolver.ConfigException {
    byte[] bytes;
    try {
      bytes = System.in.readAllBytes();
    } catch (IOException e) {
      sink.problem("cannot read standard input: " + e.getMessage());
      return;
    }
    Optional<Lint.Fixed> fixed = lint.text(stdinFilename, bytes);
    if (fixed.isPresent()) {
      PrintWriter out = spec.commandLine().getOut();
      out.print(fixed.get().text());
      out.flush();
      fixedStdin = true;
      sink.fixed += fixed.get().count();
    }
  }

  private Formatter formatter() {
    return switch (format) {
      case text -> new TextFormatter(color.use(output != null));
      case json -> new JsonFormatter();
      case sarif -> new SarifFormatter();
      case junit -> new JunitFormatter();
      case github -> new GithubFormatter();
      case checkstyle -> new CheckstyleFormatter();
    };
  }

  /**
   * Writes a report held back to its place: the report file; else standard error when standard input was fixed
   * onto standard output; else standard output. A report file that cannot be written is an input error, said in one
   * line.
   */
  private int writeReport(String report, PrintWriter err) {
    if (output == null) {
      PrintWriter out = fixedStdin ? err : spec.commandLine().getOut();
      out.print(report);
      out.flush();
      return ExitCodes.CLEAN;
    }
    try {
      AtomicFiles.write(output, report.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      err.println("hooklens: cannot write the report to " + output + ": " + IoErrors.reason(e));
      return ExitCodes.USAGE;
    }
    return ExitCodes.CLEAN;
  }
}
