package io.hooklens.lsp;

import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.lsp4j.MessageParams;
import org.eclipse.lsp4j.MessageType;
import org.eclipse.lsp4j.services.LanguageClient;

/**
 * Where the server tells what went wrong: the process log (java.util.logging, which writes to
 * standard error and never to standard output, the protocol's channel in stdio mode) and the
 * client's log ({@code window/logMessage}), so users see it in their editor's output panel. Problems
 * the user must act on, such as a broken {@code .hooklens.yaml}, are also shown
 * ({@code window/showMessage}).
 */
final class ClientLog {
  private static final Logger LOG = Logger.getLogger("io.hooklens.lsp");

  private volatile LanguageClient client;

  void connect(LanguageClient c) {
    client = c;
  }

  void info(String message) {
    LOG.info(message);
    send(MessageType.Info, message, false);
  }

  void warn(String message) {
    LOG.warning(message);
    send(MessageType.Warning, message, false);
  }

  void error(String message, Throwable e) {
    LOG.log(Level.SEVERE, message, e);
    send(MessageType.Error, e == null ? message : message + ": " + causes(e), false);
  }

  /** An exception and its causes, one after the other, without the stack trace (which the process log has). */
  static String causes(Throwable e) {
    StringBuilder out = new StringBuilder(String.valueOf(e));
    int depth = 0;
    for (Throwable c = e.getCause(); c != null && c != e && depth < 5; c = c.getCause(), depth++) {
      out.append("; caused by ").append(c);
    }
    return out.toString();
  }

  /** A problem the user has to fix: logged, and shown as a message. */
  void showWarning(String message) {
    LOG.warning(message);
    send(MessageType.Warning, message, true);
  }

  private void send(MessageType type, String message, boolean show) {
    LanguageClient c = client;
    if (c == null) {
      return;
    }
    try {
      c.logMessage(new MessageParams(type, message));
      if (show) {
        c.showMessage(new MessageParams(type, message));
      }
    } catch (RuntimeException e) {
      // The client is gone or the stream is closed: the process log above still has the message.
      LOG.log(Level.FINE, "cannot send a message to the client", e);
    }
  }
}
