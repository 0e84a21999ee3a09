package io.hooklens.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "version", mixinStandardHelpOptions = true, header = "Prints the version.")
public final class VersionCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().getOut().println("hooklens " + HooklensCommand.version());
    return ExitCodes.CLEAN;
  }
}
