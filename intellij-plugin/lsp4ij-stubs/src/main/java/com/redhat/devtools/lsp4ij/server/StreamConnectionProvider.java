/*
 * Compile-only: the signatures of LSP4IJ's StreamConnectionProvider as published in redhat-developer/lsp4ij,
 * src/main/java/com/redhat/devtools/lsp4ij/server/StreamConnectionProvider.java, checked at commit
 * d21cff925d36a476e1099420ccd9e8cd3e50fa18. Never packaged: in the IDE the class is LSP4IJ's own.
 */
package com.redhat.devtools.lsp4ij.server;

import com.intellij.openapi.vfs.VirtualFile;
import java.io.InputStream;
import java.io.OutputStream;
import org.eclipse.lsp4j.jsonrpc.messages.Message;
import org.eclipse.lsp4j.services.LanguageServer;

public interface StreamConnectionProvider {

  void start() throws CannotStartProcessException;

  InputStream getInputStream();

  OutputStream getOutputStream();

  default void addLogErrorHandler(LanguageServerLogErrorHandler handler) {}

  default void addUnexpectedServerStopHandler(Runnable handler) {}

  default Object getInitializationOptions(VirtualFile rootUri) {
    return null;
  }

  default Object getExperimentalFeaturesPOJO() {
    return null;
  }

  default String getTrace(VirtualFile rootUri) {
    return "off";
  }

  void stop();

  default void handleMessage(Message message, LanguageServer languageServer, VirtualFile rootUri) {}

  default boolean isAlive() {
    return true;
  }

  default void ensureIsAlive() throws CannotStartProcessException {
    if (!isAlive()) {
      throw new CannotStartProcessException("Unable to start language server: " + this);
    }
  }
}
