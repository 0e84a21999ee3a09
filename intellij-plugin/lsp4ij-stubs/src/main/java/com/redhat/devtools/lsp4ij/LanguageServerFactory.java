/*
 * Compile-only: the signatures of LSP4IJ's LanguageServerFactory as published in redhat-developer/lsp4ij,
 * src/main/java/com/redhat/devtools/lsp4ij/LanguageServerFactory.java, checked at commit
 * d21cff925d36a476e1099420ccd9e8cd3e50fa18. Never packaged: in the IDE the class is LSP4IJ's own. Of its default
 * methods only those the plugin overrides are declared; the others (createLanguageClient, getServerInterface,
 * createClientFeatures, createServerInstaller) keep LSP4IJ's defaults at run time.
 */
package com.redhat.devtools.lsp4ij;

import com.intellij.openapi.project.Project;
import com.redhat.devtools.lsp4ij.server.StreamConnectionProvider;
import com.redhat.devtools.lsp4ij.settings.contributors.LanguageServerSettingsContributor;

public interface LanguageServerFactory {

  StreamConnectionProvider createConnectionProvider(Project project);

  default LanguageServerSettingsContributor createLanguageServerSettingsContributor() {
    return null;
  }
}
