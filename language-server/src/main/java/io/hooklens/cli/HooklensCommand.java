package io.hooklens.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.Command;

@Command(
    name = "hooklens",
    mixinStandardHelpOptions = true,
    versionProvider = HooklensCommand.VersionProvider.class,
    description = "Finds mistakes in the hooks of Kubernetes, Helm and OpenShift manifests.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
        "0:no findings at or above --fail-on",
        "1:findings at or above --fail-on",
        "2:usage error or unreadable input; outranks 1",
        "3:internal error"})
public final class HooklensCommand implements Runnable {
  @picocli.CommandLine.Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new picocli.CommandLine.ParameterException(spec.commandLine(),
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

  /** Supplies {@code --version}. */
  public static final class VersionProvider implements picocli.CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"hooklens " + version()};
    }
  }
}
