package io.hooklens.core.yaml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.OptionalLong;

/**
 * A YAML subtree as the JSON kubectl sends for it: each scalar by its type as {@link Scalars} resolves it (a plain
 * {@code 5} is a number, a quoted {@code "5"} a string, {@code yes} a boolean, {@code 030} the number 24).
 */
public final class JsonTree {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

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
      case FLOAT -> floating(s);
      case BOOL -> JSON.booleanNode(Scalars.truth(s.value()));
      case NULL -> JSON.nullNode();
    };
  }

  private static JsonNode integer(YScalar s) {
    OptionalLong v = s.asLong();
    return v.isPresent() ? integer(v.getAsLong()) : JSON.numberNode(Scalars.bigInteger(s.value()));
  }

  /** An integral float goes out as an integer, as Go's JSON encoder writes it for kubectl ({@code 30.0} as 30). */
  private static JsonNode floating(YScalar s) {
    if (Scalars.integralFloat(s.value())) {
      OptionalLong v = s.asLong();
      return v.isPresent() ? integer(v.getAsLong())
          : JSON.numberNode(new BigDecimal(Scalars.floating(s.value())).toBigIntegerExact());
    }
    return JSON.numberNode(Scalars.floating(s.value()));
  }

  /** As Jackson reads JSON text: an int where it fits, which typed readers (IntOrString) require. */
  private static JsonNode integer(long n) {
    return n == (int) n ? JSON.numberNode((int) n) : JSON.numberNode(n);
  }
}
