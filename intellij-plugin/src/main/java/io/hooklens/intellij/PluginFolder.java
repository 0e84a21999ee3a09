package io.hooklens.intellij;

import com.intellij.ide.plugins.PluginManager;
import com.intellij.openapi.application.PathManager;
import com.intellij.openapi.extensions.PluginDescriptor;
import java.nio.file.Path;

/** Where the installed plugin lives, and the server jar inside it. */
public final class PluginFolder {
  /** The server jar, relative to the plugin's folder (the zip puts it beside {@code lib/}). */
  public static final Path SERVER_JAR = Path.of("server", "hooklens.jar");

  private PluginFolder() {}

  /**
   * The plugin's folder: the IDE's descriptor of the plugin that loaded the class, else the folder above the
   * {@code lib/} jar the class came from (a class loader that is not the IDE's plugin loader).
   */
  public static Path of(Class<?> pluginClass) {
    PluginDescriptor descriptor = PluginManager.getPluginByClass(pluginClass);
    if (descriptor != null && descriptor.getPluginPath() != null) {
      return descriptor.getPluginPath();
    }
    Path jar = Path.of(PathManager.getJarPathForClass(pluginClass));
    return jar.toAbsolutePath().getParent().getParent();
  }
}
