package io.hooklens.cli;

import io.hooklens.app.AtomicFiles;
import io.hooklens.app.DcMigration;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "migrate", mixinStandardHelpOptions = true, header = "Migrates deprecated objects.",
    subcommands = MigrateCommand.Dc.class)
public final class MigrateCommand implements Runnable {
  @Spec
  CommandSpec spec;

  @Override
  public void run() {
    throw new picocli.CommandLine.ParameterException(spec.commandLine(), "Missing command: dc");
  }

  @Command(name = "dc", mixinStandardHelpOptions = true,
      header = "Turns DeploymentConfigs into Deployments with Helm hook Jobs.",
      exitCodeListHeading = "%nExit codes:%n",
      exitCodeList = {
          "0:migrated, or nothing to migrate",
          "1:migrated, but a hook names a container the template lacks: it is a TODO note, not a Job",
          "2:usage error, unreadable input or input that is not YAML or JSON",
          "3:internal error"})
  static final class Dc implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "A YAML or JSON file holding DeploymentConfigs.")
    Path file;

    static final class Target {
      @Option(names = {"-o", "--output"}, paramLabel = "OUT", description = "Writes the result to OUT.")
      Path out;

      @Option(names = "--in-place", description = "Replaces FILE with the result.")
      boolean inPlace;
    }

    @ArgGroup(exclusive = true)
    Target target;

    @Override
    public Integer call() {
      String text;
      try {
        text = Files.readString(file, StandardCharsets.UTF_8);
      } catch (IOException e) {
        spec.commandLine().getErr().println("hooklens: cannot read " + file + ": " + e.getMessage());
        return ExitCodes.USAGE;
      }
      DcMigration.Result result;
      try {
        result = DcMigration.migrate(text);
      } catch (DcMigration.BadInput e) {
        spec.commandLine().getErr().println("hooklens: " + file + ": " + e.getMessage());
        return ExitCodes.USAGE;
      }
      // The notes lead the result as comments; stderr says only how much was done, so pipes stay clean.
      spec.commandLine().getErr().println("hooklens: migrated " + result.migrated() + " DeploymentConfig(s), "
          + result.notes().size() + " note(s)");
      for (String hook : result.leftOut()) {
        spec.commandLine().getErr().println("hooklens: not migrated, see its TODO note: " + hook);
      }
      int done = result.leftOut().isEmpty() ? ExitCodes.CLEAN : ExitCodes.FINDINGS;
      Path out = target == null ? null : target.inPlace ? file : target.out;
      if (out == null) {
        spec.commandLine().getOut().print(result.text());
        spec.commandLine().getOut().flush();
        return done;
      }
      try {
        AtomicFiles.write(out, result.text().getBytes(StandardCharsets.UTF_8));
      } catch (IOException e) {
        spec.commandLine().getErr().println("hooklens: cannot write " + out + ": " + e.getMessage());
        return ExitCodes.USAGE;
      }
      return done;
    }
  }
}
