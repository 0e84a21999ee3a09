package io.hooklens.cli;

import io.hooklens.chart.ChartLinter;
import io.hooklens.core.engine.Linter;
import io.hooklens.rules.BuiltInRules;
import io.hooklens.run.RunPlan;
import io.hooklens.run.Runner;
import io.hooklens.run.Selection;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The launcher's training run for its class-data-sharing archive: what {@code lint}, its render worker and
 * {@code run} load, in one JVM, running no hook. Hidden: not a command for users.
 */
public final class TrainingCommand implements Callable<Integer> {
  /** The name that runs this command. */
  static final String NAME = "cds-training";

  Path examples;

  /** This command's model. */
  CommandSpec spec() {
    CommandSpec spec = Specs.command(NAME, this);
    spec.usageMessage().hidden(true);
    spec.addPositional(Specs.positional(Path.class, () -> examples, v -> examples = v).index("0")
        .paramLabel("EXAMPLES").build());
    return spec;
  }

  @Override
  public Integer call() throws Exception {
    CommandLine lint = Main.commandLine();
    lint.setOut(new PrintWriter(new StringWriter()));
    lint.setErr(new PrintWriter(new StringWriter()));
    lint.execute("lint", "--format", "sarif", "--fail-on", "never", examples.toString());
    // Charts render in a worker JVM, which maps this archive too.
    ChartLinter.warmUpWorker(examples.resolve("shop"));
    Path manifest = examples.resolve("overrun.yaml");
    RunPlan plan = RunPlan.of(new Linter(BuiltInRules.registry()).parse(manifest.toString(),
        Files.readString(manifest)), Selection.all());
    Runner.warmUp(plan);
    return ExitCodes.CLEAN;
  }
}
