package io.hooklens.cli;

import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code hooklens} command. */
public final class Main {
  /** The subcommands, in the order help lists them. */
  static final List<Class<?>> COMMANDS = List.of(LintCommand.class, HooksCommand.class, RunCommand.class,
      RulesCommand.class, LspCommand.class, VersionCommand.class, TrainingCommand.class, MigrateCommand.class);

  private Main() {}

  public static void main(String[] args) {
    System.exit(run(args));
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
