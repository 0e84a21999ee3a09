package io.hooklens.cli;

import picocli.CommandLine;

/** The {@code hooklens} command. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line and returns the exit code; never throws. */
  public static int run(String... args) {
    return commandLine().execute(args);
  }

  public static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new HooklensCommand());
    cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
      cmd.getErr().println("hooklens: internal error: " + e);
      e.printStackTrace(cmd.getErr());
      return ExitCodes.INTERNAL;
    });
    return cl;
  }
}
