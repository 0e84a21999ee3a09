package io.hooklens.core.yaml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.Set;

/**
 * A YAML subtree as the JSON Kubernetes decodes from it: each scalar by its resolved type (a plain
 * {@code 5} is a number, a quoted {@code "5"} a string, {@code yes} a boolean).
 */
public final class JsonTree {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  private static final Set<String> TRUE = Set.of("true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON",
      "y", "Y");

  private JsonTree() {}

  public static JsonNode of(YNode n) {
    if (n instanceof YMap m) {
      ObjectNode o = JSON.objectNode();
      // Effective entries: Kubernetes' decoders apply merge keys, and the last of duplicate keys wins.
      for (YMap.Entry e : m.effectiveEntries()) {
        o.set(e.key().value(), of(e.value()));
      }
      return o;
    }
    if (n instanceof YSeq s) {
      ArrayNode a = JSON.arrayNode(s.size());
      for (YNode item : s.items()) {
        a.add(of(item));
      }
      return a;
    }
    YScalar s = (YScalar) n;
    return switch (s.type()) {
      case STRING -> JSON.textNode(s.value());
      case INT -> integer(s);
      case FLOAT -> JSON.numberNode(floating(s.value()));
      case BOOL -> JSON.booleanNode(TRUE.contains(s.value()));
      case NULL -> JSON.nullNode();
    };
  }

  private static JsonNode integer(YScalar s) {
    OptionalLong v = s.asLong();
    if (v.isPresent()) {
      long n = v.getAsLong();
      // As Jackson reads JSON text: an int where it fits, which typed readers (IntOrString) require.
      return n == (int) n ? JSON.numberNode((int) n) : JSON.numberNode(n);
    }
    // asLong() reads every integer spelling that fits a long, so only larger values get here.
    String d = s.value().replace("_", "");
    boolean negative = d.startsWith("-");
    if (negative || d.startsWith("+")) {
      d = d.substring(1);
    }
    int radix = d.startsWith("0x") || d.startsWith("0X") ? 16 : d.startsWith("0o") ? 8 : 10;
    BigInteger b = new BigInteger(radix == 10 ? d : d.substring(2), radix);
    return JSON.numberNode(negative ? b.negate() : b);
  }

  private static double floating(String v) {
    String f = v.replace("_", "");
    String lower = f.toLowerCase(Locale.ROOT);
    if (lower.endsWith(".inf")) {
      return f.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    }
    if (lower.equals(".nan")) {
      return Double.NaN;
    }
    return Double.parseDouble(f);
  }
}
