package io.hooklens.core.yaml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link SchemaCheck} gives the errors the JSON Schema validator gives for the keywords rules read, whether it
 * settles a subtree itself or hands it to the validator: over subtrees built from each schema, mostly valid, some
 * with a wrong type, a misspelt or missing field.
 */
class SchemaCheckTest {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  private static final Set<String> REPORTED = Set.of("type", "additionalProperties", "required");
  private static final List<JsonNode> JUNK = List.of(JSON.textNode("x"), JSON.textNode("8080"), JSON.numberNode(80),
      JSON.numberNode(-1), JSON.numberNode(1.5), JSON.booleanNode(true), JSON.nullNode(), JSON.objectNode(),
      JSON.arrayNode().add("sh"));

  @ParameterizedTest
  @ValueSource(strings = {"io/hooklens/schemas/lifecycle.schema.json",
      "io/hooklens/schemas/deploymentconfig-hook.schema.json", "io/hooklens/rules/helm/hook-pod.schema.json"})
  void givesTheValidatorsErrors(String resource) throws IOException {
    JsonNode document;
    try (InputStream in = getClass().getClassLoader().getResourceAsStream(resource)) {
      document = new ObjectMapper().readTree(in);
    }
    JsonSchema validator = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(document);
    SchemaCheck check = SchemaCheck.load(resource);
    Random random = new Random(11);
    int valid = 0;
    for (int n = 0; n < 400; n++) {
      JsonNode instance = build(document, document, random, 0);
      YNode root = new YamlReader().read(new SourceText(instance.toString()), true).documents().get(0).root();
      Set<String> expected = new TreeSet<>();
      for (ValidationMessage m : validator.validate(JsonTree.of(root))) {
        if (REPORTED.contains(m.getType())) {
          expected.add(m.getType() + " " + m.getInstanceLocation().toString() + " " + m.getProperty());
        }
      }
      Set<String> actual = new TreeSet<>();
      for (SchemaCheck.Violation v : check.validate(root)) {
        actual.add(v.keyword() + " " + location(v.path()) + " " + v.property());
      }
      assertEquals(expected, actual, instance.toString());
      valid += expected.isEmpty() ? 1 : 0;
    }
    assertTrue(valid >= 40 && valid <= 360, "valid subtrees of 400: " + valid);
  }

  private static String location(List<Object> path) {
    StringBuilder sb = new StringBuilder("$");
    for (Object step : path) {
      sb.append(step instanceof Integer i ? "[" + i + "]" : "." + step);
    }
    return sb.toString();
  }

  /** A value for the schema object: what it allows, but now and then junk, a field too many or one missing. */
  private static JsonNode build(JsonNode document, JsonNode schema, Random random, int depth) {
    if (schema.has("$ref")) {
      return build(document, document.at(schema.get("$ref").asText().substring(1)), random, depth);
    }
    if (random.nextInt(12) == 0 || depth > 8) {
      return JUNK.get(random.nextInt(JUNK.size()));
    }
    if (schema.has("const")) {
      return schema.get("const");
    }
    if (schema.has("if")) {
      return build(document, random.nextBoolean() ? schema.get("then") : schema.get("else"), random, depth);
    }
    List<String> types = new ArrayList<>();
    JsonNode type = schema.path("type");
    if (type.isArray()) {
      type.forEach(t -> types.add(t.asText()));
    } else {
      types.add(type.isTextual() ? type.asText() : schema.has("properties") ? "object" : "string");
    }
    String t = types.get(random.nextInt(types.size()));
    switch (t) {
      case "object" -> {
        ObjectNode o = JSON.objectNode();
        List<String> required = new ArrayList<>();
        schema.path("required").forEach(r -> required.add(r.asText()));
        schema.path("properties").fields().forEachRemaining(e -> {
          if ((required.contains(e.getKey()) && random.nextInt(30) != 0) || random.nextInt(3) == 0) {
            o.set(e.getKey(), build(document, e.getValue(), random, depth + 1));
          }
        });
        if (random.nextInt(10) == 0) {
          o.put("grpc", "x");
        }
        return o;
      }
      case "array" -> {
        ArrayNode a = JSON.arrayNode();
        for (int i = random.nextInt(3); i > 0; i--) {
          a.add(build(document, schema.path("items"), random, depth + 1));
        }
        return a;
      }
      case "integer" -> {
        return JSON.numberNode(random.nextInt(3) == 0 ? 0 : 30);
      }
      case "number" -> {
        return JSON.numberNode(2.5);
      }
      case "boolean" -> {
        return JSON.booleanNode(random.nextBoolean());
      }
      case "null" -> {
        return JSON.nullNode();
      }
      default -> {
        JsonNode e = schema.path("enum");
        return e.isArray() && e.size() > 0 ? e.get(random.nextInt(e.size())) : JSON.textNode("web");
      }
    }
  }
}
