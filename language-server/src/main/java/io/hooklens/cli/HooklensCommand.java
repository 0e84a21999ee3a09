package io.hooklens.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** The {@code hooklens} command itself, which only names its subcommands. */
public final class HooklensCommand implements Runnable {
  private CommandSpec spec;

  /** This command's model, without its subcommands. */
  CommandSpec spec() {
    spec = Specs.command("hooklens", this);
    spec.usageMessage()
        .description("Finds mistakes in the hooks of Kubernetes, Helm and OpenShift manifests.")
        .exitCodeListHeading("%nExit codes:%n")
        .exitCodeList(Specs.exitCodes(
            "0:no findings at or above --fail-on",
            "1:findings at or above --fail-on",
            "2:usage error or unreadable input; outranks 1",
            "3:internal error"));
    return Specs.withHelp(spec);
  }

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(),
        "Missing command: lint, hooks, run, rules, lsp, migrate or version");
  }

  /** The version baked into the jar at build time. */
  public static String version() {
    Properties p = new Properties();
    try (InputStream in = HooklensCommand.class.getResourceAsStream("/io/hooklens/version.properties")) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      return "unknown";
    }
    return p.getProperty("version", "unknown");
  }
}
