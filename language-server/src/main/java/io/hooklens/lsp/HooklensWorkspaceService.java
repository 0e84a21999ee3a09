package io.hooklens.lsp;

import java.util.concurrent.CompletableFuture;
import org.eclipse.lsp4j.DidChangeConfigurationParams;
import org.eclipse.lsp4j.DidChangeWatchedFilesParams;
import org.eclipse.lsp4j.ExecuteCommandParams;
import org.eclipse.lsp4j.services.WorkspaceService;

/** The {@code workspace/*} façade: settings, configuration files, running hooks and linting the workspace. */
final class HooklensWorkspaceService implements WorkspaceService {
  private final HooklensLanguageServer server;

  HooklensWorkspaceService(HooklensLanguageServer server) {
    this.server = server;
  }

  @Override
  public void didChangeConfiguration(DidChangeConfigurationParams params) {
    server.settingsChanged(params.getSettings());
  }

  @Override
  public CompletableFuture<Object> executeCommand(ExecuteCommandParams params) {
    return server.execute(params);
  }

  @Override
  public void didChangeWatchedFiles(DidChangeWatchedFilesParams params) {
    if (params.getChanges().stream().anyMatch(c -> ConfigService.isConfigFile(c.getUri()))) {
      server.configFilesChanged();
    }
  }
}
