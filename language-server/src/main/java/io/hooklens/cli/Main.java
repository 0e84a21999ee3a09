package io.hooklens.cli;

import io.hooklens.app.ChartLint;
import io.hooklens.lsp.WarmUp;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code hooklens} command. */
public final class Main {
  /** The subcommands, in the order help lists them. */
  static final List<Class<?>> COMMANDS = List.of(LintCommand.class, HooksCommand.class, RunCommand.class,
      RulesCommand.class, LspCommand.class, VersionCommand.class, TrainingCommand.class, MigrateCommand.class);

  private static final Set<String> CHART_COMMANDS = Set.of("lint", "hooks", "run");

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

  /**
   * The command line for these arguments: when they name a subcommand, only that one is built, since picocli
   * reflects over every option of every subcommand it is given, which is most of a one-file lint's start-up.
   */
  static CommandLine commandLine(String[] args) {
    CommandLine cl = new CommandLine(new HooklensCommand());
    Class<?> named = args.length == 0 ? null : COMMANDS.stream()
        .filter(c -> c.getAnnotation(Command.class).name().equals(args[0])).findFirst().orElse(null);
    for (Class<?> c : named == null ? COMMANDS : List.of(named)) {
      cl.addSubcommand(c);
    }
    cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
      cmd.getErr().println("hooklens: internal error: " + e);
      e.printStackTrace(cmd.getErr());
      return ExitCodes.INTERNAL;
    });
    return cl;
  }
}
