package io.hooklens.lsp;

import com.google.gson.JsonObject;
import io.hooklens.core.text.Printable;

/** What {@code workspace/executeCommand} answers: a status first, and a message when there is one to say. */
final class CommandAnswers {
  private CommandAnswers() {}

  static JsonObject status(String status, String message) {
    JsonObject o = new JsonObject();
    o.addProperty("status", status);
    if (message != null) {
      o.addProperty("message", message);
    }
    return o;
  }

  /** A refusal or failure the user must see, not only the caller; its message may name what a manifest names. */
  static JsonObject shown(ClientLog log, String command, JsonObject status) {
    log.showWarning(command + ": " + Printable.line(status.get("message").getAsString()));
    return status;
  }
}
