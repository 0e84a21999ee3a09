package io.hooklens.intellij;

import com.redhat.devtools.lsp4ij.server.ProcessStreamConnectionProvider;
import java.util.List;

/**
 * Starts the server as a process and connects to its standard streams; LSP4IJ does the starting, stopping
 * and talking, with the IDE's environment passed on.
 */
public final class HooklensConnectionProvider extends ProcessStreamConnectionProvider {
  /**
   * @param command the server's command line
   * @param workingDirectory the project's folder, or null when the project has none
   */
  public HooklensConnectionProvider(List<String> command, String workingDirectory) {
    super(command, workingDirectory);
  }
}
