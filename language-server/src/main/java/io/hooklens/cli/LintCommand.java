package io.hooklens.cli;

import io.hooklens.app.ChartLint;
import io.hooklens.app.ConfigResolver;
import io.hooklens.app.InputFiles;
import io.hooklens.app.IoErrors;
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
import io.hooklens.core.engine.Config;
import io.hooklens.core.engine.Fixes;
import io.hooklens.core.engine.LintResult;
import io.hooklens.core.engine.Linter;
import io.hooklens.core.engine.Severity;
import io.hooklens.rules.BuiltInRules;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "lint",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    header = "Checks manifests for hook mistakes and reports them.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
        "0:no findings at or above --fail-on",
        "1:findings at or above --fail-on",
        "2:usage error, bad configuration, unreadable input, or a report that cannot be written; outranks 1 (the "
            + "paths that can be read are still linted and reported)",
        "3:internal error"})
public final class LintCommand implements Callable<Integer> {
  /** Output formats. */
  enum Format { text, json, sarif, junit, github, checkstyle }

  /** The lowest severity that fails the run. */
  enum FailOn { error, warning, info, never }

  private static final String CHART_YAML = "Chart.yaml";

  @Spec
  CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "PATH",
      description = "Files, directories (searched for .yaml, .yml and .json files, and for Helm charts) or - for "
          + "standard input. A directory with a Chart.yaml is rendered with Helm and linted as a chart.")
  List<String> paths;

  @Option(names = {"-f", "--format"}, defaultValue = "text", paramLabel = "FORMAT",
      description = "Output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
  Format format;

  @Option(names = "--fail-on", defaultValue = "warning", paramLabel = "SEVERITY",
      description = "Exit with 1 when a finding is at least this severe: ${COMPLETION-CANDIDATES}"
          + " (default: ${DEFAULT-VALUE}).")
  FailOn failOn;

  @Option(names = {"-c", "--config"}, paramLabel = "FILE",
      description = "Use this configuration instead of the nearest .hooklens.yaml of each file.")
  Path config;

  @Mixin
  TargetOptions targets;

  @Option(names = {"-o", "--output"}, paramLabel = "FILE",
      description = "Write the report to FILE (atomically) instead of standard output.")
  Path output;

  @Option(names = "--stdin-filename", defaultValue = "<stdin>", paramLabel = "NAME",
      description = "Name to report for standard input; a .json name reads it as JSON.")
  String stdinFilename;

  @Mixin
  ChartValues values;

  @Option(names = "--values-set", paramLabel = "FILE",
      description = "For charts: also render with this values file on top of values.yaml (and the --values files), "
          + "as one more values set that findings name (repeatable).")
  List<Path> valuesSets = new ArrayList<>();

  @Mixin
  ColorOption color;

  @Option(names = "--fix",
      description = "Apply the fixes marked safe, changing each file's content only (not its owner, mode or links), and"
          + " report what is left."
          + " With - for standard input, the fixed text goes to standard output and the report to standard error.")
  boolean fix;

  private boolean toldChartsDoNotRender;
  private boolean fixedStdin;
  private int fixedTotal;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    if (!values.valid(err) || !ChartValues.existing("--values-set", valuesSets, err)) {
      return ExitCodes.USAGE;
    }
    Linter linter = new Linter(BuiltInRules.registry());
    ConfigResolver configs = new ConfigResolver(linter.registry(), config);
    Inputs inputs = new Inputs(linter, new ChartLint(linter), configs, targets, err);
    // Each file's findings are written as soon as it is linted, and its model dropped. A report file is written
    // whole at the end; so is the report of a run that may fix standard input, which goes to standard error
    // when the fixed text takes standard output.
    boolean deferred = output != null || fix && paths.contains("-");
    StringWriter buffer = new StringWriter();
    PrintWriter target = deferred ? new PrintWriter(buffer) : spec.commandLine().getOut();
    Report report = new Report(formatter(), target, linter.registry(), HooklensCommand.version());
    List<String> failures = new ArrayList<>();
    Consumer<FileResult> results = r -> {
      for (LintResult.RuleFailure f : r.result().failures()) {
        failures.add("hooklens: internal error: rule " + f.ruleId() + " failed on " + r.displayName() + ": "
            + f.error());
      }
      report.add(r);
    };
    int exit = ExitCodes.CLEAN;
    try {
      for (String arg : paths) {
        exit = Math.max(exit, lintArgument(arg, inputs, results));
      }
    } catch (ConfigResolver.ConfigException e) {
      err.println("hooklens: " + e.getMessage());
      return ExitCodes.USAGE;
    }
    Totals totals = report.finish(fix ? OptionalInt.of(fixedTotal) : OptionalInt.empty());
    if (deferred) {
      exit = Math.max(exit, writeReport(buffer.toString(), err));
    }
    failures.forEach(err::println);
    if (!failures.isEmpty()) {
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

  /** What linting an argument needs besides the argument. */
  private record Inputs(Linter linter, ChartLint charts, ConfigResolver configs, TargetOptions targets,
      PrintWriter err) {}

  private int lintArgument(String arg, Inputs in, Consumer<FileResult> results)
      throws ConfigResolver.ConfigException {
    PrintWriter err = in.err();
    if (arg.equals("-")) {
      byte[] bytes;
      try {
        bytes = System.in.readAllBytes();
      } catch (IOException e) {
        err.println("hooklens: cannot read standard input: " + e.getMessage());
        return ExitCodes.USAGE;
      }
      Config c = in.targets().apply(in.configs().forFile(Path.of(stdinFilename)).config());
      String text = fix ? decode(bytes) : null;
      if (text == null) {
        results.accept(new FileResult(stdinFilename, in.linter().lint(stdinFilename, bytes, c)));
        return ExitCodes.CLEAN;
      }
      Fixes.Outcome outcome = Fixes.fixSafe(in.linter(), stdinFilename, text, c);
      PrintWriter out = spec.commandLine().getOut();
      out.print(outcome.text());
      out.flush();
      fixedStdin = true;
      fixedTotal += outcome.fixed();
      results.accept(new FileResult(stdinFilename, outcome.result()));
      return ExitCodes.CLEAN;
    }
    Path path = Path.of(arg);
    Optional<String> unreadable = InputFiles.unreadable(path);
    if (unreadable.isPresent()) {
      err.println("hooklens: " + arg + ": " + unreadable.get());
      return ExitCodes.USAGE;
    }
    if (path.getFileName() != null && path.getFileName().toString().equals(CHART_YAML)
        && Files.isRegularFile(path)) {
      return lintChart(path.getParent() == null ? Path.of(".") : path.getParent(), false, in, results);
    }
    if (!Files.isDirectory(path)) {
      return lintFile(path, false, in, results);
    }
    List<Path> files;
    try {
      files = InputFiles.walk(path, note -> err.println("hooklens: " + note));
    } catch (IOException e) {
      err.println("hooklens: cannot read directory " + arg + ": " + e.getMessage());
      return ExitCodes.USAGE;
    }
    if (files.isEmpty()) {
      err.println("hooklens: " + arg + ": no .yaml, .yml or .json files found");
      return ExitCodes.USAGE;
    }
    int exit = ExitCodes.CLEAN;
    for (Path file : files) {
      // A chart named on the command line is not subject to excludes, as a named file is not.
      boolean walked = !file.equals(path);
      boolean chart = Files.isDirectory(file) && ChartLint.isChart(file);
      exit = Math.max(exit, chart ? lintChart(file, walked, in, results) : lintFile(file, true, in, results));
    }
    return exit;
  }

  private int lintFile(Path file, boolean walked, Inputs in, Consumer<FileResult> results)
      throws ConfigResolver.ConfigException {
    ConfigResolver.Resolved resolved = in.configs().forFile(file);
    if (walked && resolved.excludes(file)) {
      return ExitCodes.CLEAN;
    }
    Linter.Decoded decoded;
    try {
      // Decoded as read: the bytes of a large file are not kept beside its text and model while it is linted.
      decoded = Linter.decode(Files.readAllBytes(file));
    } catch (NoSuchFileException e) {
      in.err().println("hooklens: " + file + ": no such file");
      return ExitCodes.USAGE;
    } catch (IOException | OutOfMemoryError e) {
      in.err().println("hooklens: cannot read " + file + ": " + IoErrors.reason(e));
      return ExitCodes.USAGE;
    }
    String name = file.toString();
    Config c = in.targets().apply(resolved.config());
    String text = fix ? decoded.text() : null;
    if (text == null) {
      results.accept(new FileResult(name, in.linter().lint(name, decoded, c)));
      return ExitCodes.CLEAN;
    }
    Fixes.Outcome outcome = Fixes.fixSafe(in.linter(), name, text, c);
    if (outcome.fixed() > 0) {
      try {
        AtomicFiles.write(file, outcome.text().getBytes(StandardCharsets.UTF_8));
      } catch (IOException e) {
        in.err().println("hooklens: cannot write " + file + ": " + IoErrors.reason(e));
        return ExitCodes.USAGE;
      }
      fixedTotal += outcome.fixed();
      in.err().println("hooklens: fixed " + outcome.fixed() + (outcome.fixed() == 1 ? " problem" : " problems")
          + " in " + name);
    }
    results.accept(new FileResult(name, outcome.result()));
    return ExitCodes.CLEAN;
  }

  /** Text the engine can fix: what it reads of a file; null otherwise, and the lint says why. */
  private static String decode(byte[] bytes) {
    return Linter.decode(bytes).text();
  }

  /**
   * Lints a chart ({@link ChartLint}) and adds a result per file its findings are in; the configuration is the one
   * of its Chart.yaml, and in a directory walk its excludes apply to the chart and to each of its files.
   */
  private int lintChart(Path dir, boolean walked, Inputs in, Consumer<FileResult> results)
      throws ConfigResolver.ConfigException {
    Path chartYaml = dir.resolve(CHART_YAML);
    ConfigResolver.Resolved resolved = in.configs().forFile(chartYaml);
    if (walked && resolved.excludes(chartYaml)) {
      return ExitCodes.CLEAN;
    }
    if (fix && fixChartFiles(dir, in) != ExitCodes.CLEAN) {
      return ExitCodes.USAGE;
    }
    ChartLint.Outcome outcome;
    try {
      outcome = in.charts().lint(dir, new ChartLint.Values(values.valuesFiles, valuesSets, values.setValues.values()),
          in.targets().apply(resolved.config()), scope(resolved, walked, in));
    } catch (IOException e) {
      in.err().println("hooklens: cannot read chart " + dir + ": " + IoErrors.reason(e));
      return ExitCodes.USAGE;
    }
    outcome.helmUnavailable().filter(why -> !toldChartsDoNotRender).ifPresent(why -> {
      toldChartsDoNotRender = true;
      in.err().println("hooklens: charts are linted template by template, not rendered: " + why);
    });
    outcome.notes().forEach(n -> in.err().println("hooklens: " + n));
    outcome.problems().forEach(p -> in.err().println("hooklens: " + p));
    outcome.files().forEach(f -> results.accept(new FileResult(f.displayName(), f.result(), f.valuesSets())));
    return outcome.problems().isEmpty() ? ExitCodes.CLEAN : ExitCodes.USAGE;
  }

  /** A chart's files as the command line takes them: each its own configuration, excludes of a walk applied. */
  private static ChartLint.Scope scope(ConfigResolver.Resolved chart, boolean walked, Inputs in) {
    return new ChartLint.Scope() {
      @Override
      public Optional<Config> forFile(Path file) throws ConfigResolver.ConfigException {
        ConfigResolver.Resolved r = in.configs().forFile(file);
        return r.excludes(file) ? Optional.empty() : Optional.of(in.targets().apply(r.config()));
      }

      @Override
      public boolean excludes(Path file) {
        return walked && chart.excludes(file);
      }
    };
  }

  /**
   * Fixes a chart's files one by one before it is rendered: templates are read with their actions masked,
   * and only fixes on lines free of actions are kept (the engine's TemplateFixes), never ones computed on
   * Helm's output. What remains is reported from the rendering, as without --fix.
   */
  private int fixChartFiles(Path dir, Inputs in) throws ConfigResolver.ConfigException {
    List<Path> files;
    try {
      files = InputFiles.walkChart(dir, note -> in.err().println("hooklens: " + note));
    } catch (IOException e) {
      in.err().println("hooklens: cannot read directory " + dir + ": " + e.getMessage());
      return ExitCodes.USAGE;
    }
    int exit = ExitCodes.CLEAN;
    for (Path file : files) {
      exit = Math.max(exit, lintFile(file, true, in, r -> { }));
    }
    return exit;
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
