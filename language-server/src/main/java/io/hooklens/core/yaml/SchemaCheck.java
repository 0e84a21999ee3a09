package io.hooklens.core.yaml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonNodePath;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A JSON Schema of the {@code hooklens-schemas} jar, run over a YAML subtree. The subtree is converted
 * to JSON by each scalar's resolved type, as Kubernetes reads YAML: a plain {@code 5} is a number, a
 * quoted {@code "5"} a string, {@code yes} a boolean. Each error is placed back on the YAML node it is
 * about. Instances are immutable and safe to share between threads.
 */
public final class SchemaCheck {
  /**
   * What becomes of a field the API's schema lacks, for rule messages. The API server drops it and warns (server-side
   * field validation, GA in Kubernetes 1.27, defaults to Warn); kubectl's {@code --validate} defaults to
   * {@code strict}, which asks the server to refuse the object, or checks the OpenAPI schema itself when it cannot.
   */
  public static final String UNKNOWN_FIELD_FATE = "the API server drops it (with an \"unknown field\" warning), and"
      + " kubectl or oc apply, whose --validate is strict by default, refuses the object";

  /**
   * One schema error.
   *
   * @param keyword the failing keyword, such as {@code type} or {@code additionalProperties}
   * @param node the YAML node at the error's instance location
   * @param path map keys (String) and list indices (Integer) from the checked root to {@code node}
   * @param property the property an {@code additionalProperties} or {@code required} error names, or null
   * @param schema the schema object that holds the failing keyword
   */
  public record Violation(String keyword, YNode node, List<Object> path, String property, JsonNode schema) {}

  /** The keywords whose errors the rules read; the others have rules of their own or none. */
  private static final Set<String> REPORTED = Set.of("type", "additionalProperties", "required");
  /** Keywords that never yield a reported error and hold no subschema. */
  private static final Set<String> UNREPORTED = Set.of("$schema", "$id", "$comment", "$defs", "title", "description",
      "default", "examples", "deprecated", "enum", "const", "pattern", "format", "minimum", "maximum",
      "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "minItems", "maxItems",
      "uniqueItems", "minProperties", "maxProperties");

  private final JsonNode document;
  private volatile JsonSchema schema;

  private SchemaCheck(JsonNode document) {
    this.document = document;
  }

  /**
   * Loads a draft 2020-12 schema from the classpath; a missing or broken schema is a packaging error. The schema is
   * read with the YAML reader, and the JSON Schema validator is built only once a subtree needs it.
   */
  public static SchemaCheck load(String resource) {
    String text;
    try (InputStream in = SchemaCheck.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("schema " + resource + " is not on the classpath");
      }
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read schema " + resource, e);
    }
    ParsedFile parsed = new YamlReader().read(new SourceText(text), true);
    if (!parsed.problems().isEmpty() || parsed.documents().size() != 1) {
      throw new IllegalStateException("schema " + resource + " is not one JSON document: " + parsed.problems());
    }
    return new SchemaCheck(JsonTree.of(parsed.documents().get(0).root()));
  }

  /** The validator, built on first use: it costs more than a cold lint's whole check of a valid file. */
  private JsonSchema schema() {
    JsonSchema s = schema;
    if (s == null) {
      synchronized (this) {
        s = schema;
        if (s == null) {
          s = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(document);
          // Resolves every $ref now, so that validation never mutates the shared schema.
          s.initializeValidators();
          schema = s;
        }
      }
    }
    return s;
  }

  /**
   * Validates a YAML subtree; converts only that subtree. Returns the {@code type}, {@code additionalProperties}
   * and {@code required} errors, the ones rules read. A subtree that plainly conforms, as most do, is not given
   * to the validator.
   */
  public List<Violation> validate(YNode root) {
    JsonNode instance = finite(JsonTree.of(root));
    if (conforms(instance, document)) {
      return List.of();
    }
    Set<ValidationMessage> errors = schema().validate(instance);
    List<Violation> out = new ArrayList<>(errors.size());
    for (ValidationMessage m : errors) {
      if (!REPORTED.contains(m.getType())) {
        continue;
      }
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

  /**
   * Whether the instance certainly has no reported error under the schema object: false when it has one, or when
   * the schema uses a keyword this check does not know, and the validator then decides.
   */
  private boolean conforms(JsonNode instance, JsonNode schemaObject) {
    if (schemaObject.isBoolean()) {
      return schemaObject.booleanValue();
    }
    if (!schemaObject.isObject()) {
      return false;
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = schemaObject.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode value = e.getValue();
      boolean ok = switch (e.getKey()) {
        case "$ref" -> value.isTextual() && value.asText().startsWith("#/$defs/")
            && conforms(instance, document.at(value.asText().substring(1)));
        case "type" -> hasType(instance, value);
        case "required" -> required(instance, value);
        case "properties" -> properties(instance, value);
        case "additionalProperties" -> additional(instance, schemaObject.path("properties"), value);
        case "items" -> items(instance, value);
        default -> UNREPORTED.contains(e.getKey());
      };
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  private static boolean hasType(JsonNode instance, JsonNode type) {
    if (type.isTextual()) {
      return isType(instance, type.asText());
    }
    for (JsonNode t : type) {
      if (isType(instance, t.asText())) {
        return true;
      }
    }
    return false;
  }

  /** The JSON type test, strict where the validator may be lenient: a fraction that is whole is left to it. */
  private static boolean isType(JsonNode n, String type) {
    return switch (type) {
      case "object" -> n.isObject();
      case "array" -> n.isArray();
      case "string" -> n.isTextual();
      case "boolean" -> n.isBoolean();
      case "null" -> n.isNull();
      case "number" -> n.isNumber();
      case "integer" -> n.isIntegralNumber();
      default -> false;
    };
  }

  private static boolean required(JsonNode instance, JsonNode names) {
    if (!instance.isObject()) {
      return true;
    }
    for (JsonNode name : names) {
      if (!instance.has(name.asText())) {
        return false;
      }
    }
    return true;
  }

  private boolean properties(JsonNode instance, JsonNode properties) {
    if (!instance.isObject()) {
      return true;
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = instance.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode property = properties.get(e.getKey());
      if (property != null && !conforms(e.getValue(), property)) {
        return false;
      }
    }
    return true;
  }

  private boolean additional(JsonNode instance, JsonNode properties, JsonNode additional) {
    if (!instance.isObject()) {
      return true;
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = instance.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (!properties.has(e.getKey()) && !conforms(e.getValue(), additional)) {
        return false;
      }
    }
    return true;
  }

  private boolean items(JsonNode instance, JsonNode items) {
    if (!instance.isArray()) {
      return true;
    }
    for (JsonNode item : instance) {
      if (!conforms(item, items)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The tree with YAML's {@code .inf} and {@code .nan} as a plain fraction. The validator takes the exact decimal
   * of numbers, which these have none of (it threw, and the rule lost its findings); the rules read only type,
   * property and required verdicts, for which one non-integer number stands for any other.
   */
  private static JsonNode finite(JsonNode n) {
    if (n.isDouble() && !Double.isFinite(n.doubleValue())) {
      return JsonNodeFactory.instance.numberNode(0.5);
    }
    if (n instanceof ObjectNode o) {
      o.fields().forEachRemaining(e -> e.setValue(finite(e.getValue())));
    } else if (n instanceof ArrayNode a) {
      for (int i = 0; i < a.size(); i++) {
        a.set(i, finite(a.get(i)));
      }
    }
    return n;
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
  public JsonNode resolve(JsonNode schemaObject) {
    JsonNode ref = schemaObject.get("$ref");
    if (ref == null || !ref.asText().startsWith("#/")) {
      return schemaObject;
    }
    return document.at(ref.asText().substring(1));
  }

  /** A violation's path as Kubernetes' messages write it: {@code spec.containers[0].lifecycle}. */
  public static String describe(List<Object> path) {
    StringBuilder sb = new StringBuilder();
    for (Object step : path) {
      sb.append(step instanceof Integer i ? "[" + i + "]" : (sb.length() == 0 ? "" : ".") + step);
    }
    return sb.toString();
  }

  /**
   * The properties of {@code schemaObject} whose own object (or list item) declares {@code name}: where a field
   * written one level too high belongs.
   */
  public List<String> childrenDeclaring(JsonNode schemaObject, String name) {
    List<String> out = new ArrayList<>();
    for (String p : properties(schemaObject)) {
      JsonNode child = resolve(schemaObject.path("properties").path(p));
      if (child.path("properties").has(name) || resolve(child.path("items")).path("properties").has(name)) {
        out.add(p);
      }
    }
    return out;
  }

  /** The property names a schema object declares, in its order. */
  public static List<String> properties(JsonNode schemaObject) {
    List<String> out = new ArrayList<>();
    schemaObject.path("properties").fieldNames().forEachRemaining(out::add);
    return out;
  }

  /** The types a schema object allows, {@code null} included. */
  public static List<String> types(JsonNode schemaObject) {
    JsonNode type = schemaObject.path("type");
    List<String> out = new ArrayList<>();
    if (type.isArray()) {
      type.forEach(t -> out.add(t.asText()));
    } else if (type.isTextual()) {
      out.add(type.asText());
    }
    return out;
  }
}
