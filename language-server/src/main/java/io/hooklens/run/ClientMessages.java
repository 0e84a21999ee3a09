package io.hooklens.run;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The API server's own words in a Kubernetes client's error, as Helm and kubectl print them. */
final class ClientMessages {
  // fabric8 wraps the server's message: "Failure executing: POST at: URL. Message: ... Received status: Status(...)".
  private static final Pattern WRAPPED = Pattern.compile(
      "Failure executing: \\S+ at: \\S+\\. Message: (.*?)\\.? Received status: Status\\(.*", Pattern.DOTALL);

  private ClientMessages() {}

  /** The text with each wrapped client error reduced to the server's message; null stays null. */
  static String plain(String text) {
    if (text == null) {
      return null;
    }
    Matcher m = WRAPPED.matcher(text);
    return m.find() ? text.substring(0, m.start()) + m.group(1) : text;
  }
}
