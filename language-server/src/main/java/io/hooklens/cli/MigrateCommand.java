package io.hooklens.cli;

import io.hooklens.app.AtomicFiles;
import io.hooklens.app.DcMigration;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.ArgGroupSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** {@code hooklens migrate}, which only names its subcommands. */
public final class MigrateCommand implements Runnable {
  /** The name that runs this command. */
  static final String NAME = "migrate";

  private CommandSpec spec;

  /** This command's model, with its subcommands. */
  CommandSpec spec() {
    spec = Specs.command(NAME, this);
    spec.usageMessage().header("Migrates deprecated objects.");
    spec.addSubcommand(Dc.NAME, new Dc().spec());
    return Specs.withHelp(spec);
  }

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "Missing command: dc");
  }

  /** {@code hooklens migrate dc}. */
  static final class Dc implements Callable<Integer> {
    /** The name that runs this command. */
    static final String NAME = "dc";

    private CommandSpec spec;
    Path file;
    Path out;
    boolean inPlace;

    /** This command's model. */
    CommandSpec spec() {
      spec = Specs.command(NAME, this);
      spec.usageMessage()
          .header("Turns DeploymentConfigs into Deployments with Helm hook Jobs.")
          .exitCodeListHeading("%nExit codes:%n")
          .exitCodeList(Specs.exitCodes(
              "0:migrated, or nothing to migrate",
              "1:migrated, but a hook names a container the template lacks: it is a TODO note, not a Job",
              "2:usage error, unreadable input or input that is not YAML or JSON",
              "3:internal error"));
      spec.addPositional(Specs.positional(Path.class, () -> file, v -> file = v).paramLabel("FILE")
          .description("A YAML or JSON file holding DeploymentConfigs.").build());
      spec.addArgGroup(ArgGroupSpec.builder().exclusive(true).multiplicity("0..1")
          .addArg(Specs.option(Path.class, () -> out, v -> out = v, "-o", "--output").paramLabel("OUT")
              .description("Writes the result to OUT.").build())
          .addArg(Specs.option(boolean.class, () -> inPlace, v -> inPlace = v, "--in-place")
              .description("Replaces FILE with the result.").build())
          .build());
      return Specs.withHelp(spec);
    }

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
      Path to = inPlace ? file : out;
      if (to == null) {
        spec.commandLine().getOut().print(result.text());
        spec.commandLine().getOut().flush();
        return done;
      }
      try {
        AtomicFiles.write(to, result.text().getBytes(StandardCharsets.UTF_8));
      } catch (IOException e) {
        spec.commandLine().getErr().println("hooklens: cannot write " + to + ": " + e.getMessage());
        return ExitCodes.USAGE;
      }
      return done;
    }
  }
}
