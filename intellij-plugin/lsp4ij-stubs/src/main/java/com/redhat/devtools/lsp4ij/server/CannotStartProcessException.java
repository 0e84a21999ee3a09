/*
 * Compile-only: the signatures of LSP4IJ's CannotStartProcessException as published in redhat-developer/lsp4ij,
 * src/main/java/com/redhat/devtools/lsp4ij/server/CannotStartProcessException.java, checked at commit
 * d21cff925d36a476e1099420ccd9e8cd3e50fa18. Never packaged: in the IDE the class is LSP4IJ's own.
 */
package com.redhat.devtools.lsp4ij.server;

public class CannotStartProcessException extends LanguageServerException {

  public CannotStartProcessException(Exception e) {
    super(e);
  }

  public CannotStartProcessException(String message) {
    super(message);
  }
}
