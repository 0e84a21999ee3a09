package io.hooklens.lsp;

import org.eclipse.lsp4j.DidChangeConfigurationParams;
import org.eclipse.lsp4j.DidChangeWatchedFilesParams;
import org.eclipse.lsp4j.services.WorkspaceService;

/** The {@code workspace/*} façade: settings and configuration files. */
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
  public void didChangeWatchedFiles(DidChangeWatchedFilesParams params) {
    if (params.getChanges().stream().anyMatch(c -> ConfigService.isConfigFile(c.getUri()))) {
      server.configFilesChanged();
    }
  }
}
