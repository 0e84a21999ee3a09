/*
 * Compile-only: the signatures of LSP4IJ's LanguageServerException as published in redhat-developer/lsp4ij,
 * src/main/java/com/redhat/devtools/lsp4ij/server/LanguageServerException.java, checked at commit
 * d21cff925d36a476e1099420ccd9e8cd3e50fa18. Never packaged: in the IDE the class is LSP4IJ's own.
 */
package com.redhat.devtools.lsp4ij.server;

public class LanguageServerException extends RuntimeException {

  public LanguageServerException(String message, Throwable e) {
    super(message, e);
  }

  public LanguageServerException(Throwable e) {
    super(e);
  }

  public LanguageServerException(String message) {
    super(message);
  }
}
