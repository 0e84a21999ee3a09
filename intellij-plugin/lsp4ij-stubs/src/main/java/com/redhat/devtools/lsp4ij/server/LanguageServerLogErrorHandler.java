/*
 * Compile-only: the signatures of LSP4IJ's LanguageServerLogErrorHandler as published in redhat-developer/lsp4ij,
 * src/main/java/com/redhat/devtools/lsp4ij/server/LanguageServerLogErrorHandler.java, checked at commit
 * d21cff925d36a476e1099420ccd9e8cd3e50fa18. Never packaged: in the IDE the class is LSP4IJ's own.
 */
package com.redhat.devtools.lsp4ij.server;

public interface LanguageServerLogErrorHandler {

  void logError(String error);
}
