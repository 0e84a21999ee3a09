package io.hooklens.rules.lifecycle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonNodePath;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YScalar;
import io.hooklens.core.yaml.YSeq;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.Set;

/**
 * A JSON Schema of the {@code hooklens-schemas} jar, run over a YAML subtree. The subtree is converted
 * to JSON by each scalar's resolved type, as Kubernetes reads YAML: a plain {@code 5} is a number, a
 * quoted {@code "5"} a string, {@code yes} a boolean. Each error is placed back on the YAML node it is
 * about. Instances are immutable and safe to share between threads.
 */
final class SchemaCheck {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  private static final Set<String> TRUE = Set.of("true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON",
      "y", "Y");

  /**
   * One schema error.
   *
   * @param keyword the failing keyword, such as {@code type} or {@code additionalProperties}
   * @param node the YAML node at the error's instance location
   * @param path map keys (String) and list indices (Integer) from the checked root to {@code node}
   * @param property the property an {@code additionalProperties} or {@code required} error names, or null
   * @param schema the schema object that holds the failing keyword
   */
  record Violation(String keyword, YNode node, List<Object> path, String property, JsonNode schema) {}

  private final JsonNode document;
  private final JsonSchema schema;

  private SchemaCheck(JsonNode document, JsonSchema schema) {
    this.document = document;
    this.schema = schema;
  }

  /** Loads a draft 2020-12 schema from the classpath; a missing or broken schema is a packaging error. */
  static SchemaCheck load(String resource) {
    try (InputStream in = SchemaCheck.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("schema " + resource + " is not on the classpath");
      }
      JsonNode document = new ObjectMapper().readTree(in);
      JsonSchema schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(document);
      // Resolves every $ref now, so that validation never mutates the shared schema.
      schema.initializeValidators();
      return new SchemaCheck(document, schema);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read schema " + resource, e);
    }
  }

  /** Validates a YAML subtree; converts only that subtree. */
  List<Violation> validate(YNode root) {
    Set<ValidationMessage> errors = schema.validate(toJson(root));
    List<Violation> out = new ArrayList<>(errors.size());
    for (ValidationMessage m : errors) {
      List<Object> path = new ArrayList<>();
      JsonNodePath location = m.getInstanceLocation();
      YNode node = root;
      for (int i = 0; i < location.getNameCount(); i++) {
        Object step = location.getElement(i);
        path.add(step);
        // The JSON mirrors the YAML tree exactly, so every step exists on the YAML side too.
        node = step instanceof Integer index ? ((YSeq) node).get(index) : ((YMap) node).get((String) step);
      }
      out.add(new Violation(m.getType(), node, List.copyOf(path), m.getProperty(), holder(m)));
    }
    return out;
  }

  /** The schema object whose keyword failed: the error's schema location without its last step. */
  private JsonNode holder(ValidationMessage m) {
    JsonNodePath fragment = m.getSchemaLocation().getFragment();
    JsonNode node = document;
    for (int i = 0; i + 1 < fragment.getNameCount(); i++) {
      Object step = fragment.getElement(i);
      node = step instanceof Integer index ? node.path(index) : node.path((String) step);
    }
    return node;
  }

  /** Follows a local {@code $ref} ({@code #/$defs/X}); other schemas are returned as they are. */
  JsonNode resolve(JsonNode schemaObject) {
    JsonNode ref = schemaObject.get("$ref");
    if (ref == null || !ref.asText().startsWith("#/")) {
      return schemaObject;
    }
    return document.at(ref.asText().substring(1));
  }

  /** The types a schema object allows, {@code null} included. */
  static List<String> types(JsonNode schemaObject) {
    JsonNode type = schemaObject.path("type");
    List<String> out = new ArrayList<>();
    if (type.isArray()) {
      type.forEach(t -> out.add(t.asText()));
    } else if (type.isTextual()) {
      out.add(type.asText());
    }
    return out;
  }

  static JsonNode toJson(YNode n) {
    if (n instanceof YMap m) {
      ObjectNode o = JSON.objectNode();
      // Effective entries: Kubernetes' decoders apply merge keys, and the last of duplicate keys wins.
      for (YMap.Entry e : m.effectiveEntries()) {
        o.set(e.key().value(), toJson(e.value()));
      }
      return o;
    }
    if (n instanceof YSeq s) {
      ArrayNode a = JSON.arrayNode(s.size());
      for (YNode item : s.items()) {
        a.add(toJson(item));
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
      return JSON.numberNode(v.getAsLong());
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
