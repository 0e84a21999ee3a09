package io.hooklens.intellij;

import com.intellij.openapi.diagnostic.Logger;
import com.intellij.openapi.project.Project;
import com.redhat.devtools.lsp4ij.LanguageServerFactory;
import com.redhat.devtools.lsp4ij.server.CannotStartProcessException;
import com.redhat.devtools.lsp4ij.server.StreamConnectionProvider;
import com.redhat.devtools.lsp4ij.settings.contributors.LanguageServerSettingsContributor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;

/**
 * The Hooklens language server for LSP4IJ (plugin.xml names this class). It only says how to start the
 * server; every finding, fix, hint and lens comes from the server through LSP4IJ.
 */
public final class HooklensServerFactory implements LanguageServerFactory {
  private static final Logger LOG = Logger.getInstance(HooklensServerFactory.class);

  private final Supplier<Path> pluginFolder;
  private final RuntimeSource runtime;

  /** How the runtime is found; the IDE's VM options, environment and runtime in the IDE. */
  @FunctionalInterface
  public interface RuntimeSource {
    JavaRuntime get() throws JavaRuntime.NotUsable;
  }

  /** The factory LSP4IJ creates from plugin.xml. */
  public HooklensServerFactory() {
    this(() -> PluginFolder.of(HooklensServerFactory.class), JavaRuntime::ofThisProcess);
  }

  /**
   * @param pluginFolder the installed plugin's folder
   * @param runtime finds the Java runtime to start the server with
   */
  public HooklensServerFactory(Supplier<Path> pluginFolder, RuntimeSource runtime) {
    this.pluginFolder = pluginFolder;
    this.runtime = runtime;
  }

  /**
   * @throws CannotStartProcessException with a message for the user (LSP4IJ shows it in a notification)
   *     when the server jar is missing or the chosen Java cannot run it
   */
  @Override
  public StreamConnectionProvider createConnectionProvider(Project project) {
    Path folder = pluginFolder.get();
    Path jar = folder.resolve(PluginFolder.SERVER_JAR);
    if (!Files.isRegularFile(jar)) {
      throw new CannotStartProcessException("Hooklens: the server jar " + jar + " is missing from the plugin's folder "
          + folder + "; reinstall the plugin from its zip.");
    }
    JavaRuntime java;
    try {
      java = runtime.get();
    } catch (JavaRuntime.NotUsable e) {
      throw new CannotStartProcessException(e.getMessage());
    }
    List<String> command = ServerCommand.of(java, jar);
    LOG.info("Starting the Hooklens server with Java from " + java.source() + ": " + String.join(" ", command));
    return new HooklensConnectionProvider(command, project.getBasePath());
  }

  @Override
  public LanguageServerSettingsContributor createLanguageServerSettingsContributor() {
    return new HooklensSettings();
  }
}
