package io.hooklens.rules.lifecycle;

import io.hooklens.core.model.Container;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YScalar;
import io.hooklens.core.yaml.YSeq;
import java.util.ArrayList;
import java.util.List;
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

  /**
   * The names of a container's own ports, the only ones the kubelet searches; null when they cannot be known
   * (a template expression, or a value of the wrong shape).
   */
  static List<String> declared(Container container) {
    YNode ports = container.node().get("ports");
    List<String> names = new ArrayList<>();
    if (ports == null || ports instanceof YScalar blank && blank.type() == YScalar.Type.NULL) {
      return container.hidesContent() ? null : names;
    }
    if (!(ports instanceof YSeq seq)) {
      return null;
    }
    for (YNode item : seq.items()) {
      if (!(item instanceof YMap p)) {
        return null;
      }
      YNode name = p.get("name");
      if (name == null) {
        continue;
      }
      if (!(name instanceof YScalar s) || s.isTemplated()) {
        return null;
      }
      if (s.type() != YScalar.Type.NULL) {
        names.add(s.value());
      }
    }
    return names;
  }
}
