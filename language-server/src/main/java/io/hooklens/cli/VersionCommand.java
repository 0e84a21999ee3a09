package io.hooklens.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;

public final class VersionCommand implements Callable<Integer> {
  /** The name that runs this command. */
  static final String NAME = "version";

  private CommandSpec spec;

  /** This command's model. */
  CommandSpec spec() {
    spec = Specs.command(NAME, this);
    spec.usageMessage()
        .header("Prints the version.");
    return Specs.withHelp(spec);
  }

  @Override
  public Integer call() {
    spec.commandLine().getOut().println("hooklens " + HooklensCommand.version());
    return ExitCodes.CLEAN;
  }
}
