package io.hooklens.cli;

import io.hooklens.app.ChartLint;
import io.hooklens.lsp.WarmUp;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/** The {@code hooklens} command. */
public final class Main {
  /** The subcommands by name, in the order help lists them; each makes a new command and its model. */
  private static final List<Map.Entry<String, Supplier<CommandSpec>>> COMMANDS = List.of(
      Map.entry(LintCommand.NAME, () -> new LintCommand().spec()),
      Map.entry(HooksCommand.NAME, () -> new HooksCommand().spec()),
      Map.entry(RunCommand.NAME, () -> new RunCommand().spec()),
      Map.entry(RulesCommand.NAME, () -> new RulesCommand().spec()),
      Map.entry(LspCommand.NAME, () -> new LspCommand().spec()),
      Map.entry(VersionCommand.NAME, () -> new VersionCommand().spec()),
      Map.entry(TrainingCommand.NAME, () -> new TrainingCommand().spec()),
      Map.entry(MigrateCommand.NAME, () -> new MigrateCommand().spec()));

  private static final Set<String> CHART_COMMANDS = Set.of(LintCommand.NAME, HooksCommand.NAME, RunCommand.NAME);

  private Main() {}

  public static void main(String[] args) {
    if (namesChart(args)) {
      // Helm's render worker (a JVM loading Helm) takes most of a one-chart lint's start: it starts now, beside
      // the parsing and set-up before the chart is met, rather than after them.
      ChartLint.prepare();
    }
    if (args.length > 0 && args[0].equals("lsp")) {
      WarmUp.start();
    }
    System.exit(run(args));
  }

  /**
   * Whether the arguments are those of a command that renders charts and name a chart folder or its Chart.yaml,
   * with no helm binary given ({@code --helm}), which renders without the worker.
   */
  static boolean namesChart(String[] args) {
    if (args.length < 2 || !CHART_COMMANDS.contains(args[0])) {
      return false;
    }
    boolean chart = false;
    for (String a : Arrays.asList(args).subList(1, args.length)) {
      if (a.equals("--helm") || a.startsWith("--helm=")) {
        return false;
      }
      try {
        Path p = Path.of(a);
        chart |= !a.startsWith("-") && (Files.isRegularFile(p.resolve("Chart.yaml"))
            || p.endsWith("Chart.yaml") && Files.isRegularFile(p));
      } catch (InvalidPathException e) {
        // Not a path; the command says so.
      }
    }
    return chart;
  }

  /** Runs the command line and returns the exit code; never throws. */
  public static int run(String... args) {
    return commandLine(args).execute(args);
  }

  /** The whole command line, every subcommand in it. */
  public static CommandLine commandLine() {
    return commandLine(new String[0]);
  }

  /** The command line for these arguments: when they name a subcommand, only that one is built. */
  static CommandLine commandLine(String[] args) {
    CommandSpec root = new HooklensCommand().spec();
    boolean named = args.length > 0 && COMMANDS.stream().anyMatch(c -> c.getKey().equals(args[0]));
    for (Map.Entry<String, Supplier<CommandSpec>> c : COMMANDS) {
      if (!named || c.getKey().equals(args[0])) {
        root.addSubcommand(c.getKey(), c.getValue().get());
      }
    }
    CommandLine cl = new CommandLine(root);
    cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
      cmd.getErr().println("hooklens: internal error: " + e);
      e.printStackTrace(cmd.getErr());
      return ExitCodes.INTERNAL;
    });
    return cl;
  }
}
