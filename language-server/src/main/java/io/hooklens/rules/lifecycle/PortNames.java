package io.hooklens.rules.lifecycle;

import java.util.regex.Pattern;

/** Kubernetes' rules for port names (IANA service names), as the API server applies them. */
final class PortNames {
  private static final int MAX_LENGTH = 15;
  private static final Pattern CHARS = Pattern.compile("[-a-z0-9]+");
  private static final Pattern LETTER = Pattern.compile(".*[a-z].*");

  private PortNames() {}

  /** Why a string is not a valid port name, in the API server's order of checks; null when it is valid. */
  static String problem(String name) {
    if (name.isEmpty()) {
      return "it is empty";
    }
    if (name.length() > MAX_LENGTH) {
      return "it is longer than " + MAX_LENGTH + " characters";
    }
    if (!CHARS.matcher(name).matches()) {
      return "only lower-case letters, digits and '-' are allowed";
    }
    if (!LETTER.matcher(name).matches()) {
      return "it needs at least one letter";
    }
    if (name.contains("--")) {
      return "it must not contain '--'";
    }
    if (name.startsWith("-") || name.endsWith("-")) {
      return "it must not start or end with '-'";
    }
    return null;
  }
}
