/*
 * Compile-only: the signatures of LSP4IJ's LanguageServerSettingsContributor as published in
 * redhat-developer/lsp4ij,
 * src/main/java/com/redhat/devtools/lsp4ij/settings/contributors/LanguageServerSettingsContributor.java, checked
 * at commit d21cff925d36a476e1099420ccd9e8cd3e50fa18. Never packaged: in the IDE the class is LSP4IJ's own. Its
 * default methods for initialization options and experimental content are not declared: the plugin keeps LSP4IJ's
 * defaults (none).
 */
package com.redhat.devtools.lsp4ij.settings.contributors;

public interface LanguageServerSettingsContributor {

  ServerConfigurationContributor getServerConfigurationContributor();
}
