package io.hooklens.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.gson.JsonParser;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import io.hooklens.rules.BuiltInRules;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code schemas/settings.schema.json} declares the settings the server accepts; these tests hold
 * {@link Settings} to it: it reads every value the schema allows without a word, reports every value
 * of a type, range or key the schema refuses, and knows exactly the schema's keys. The extension's
 * {@code package.json} is held to the same schema by its own tests.
 */
class SettingsSchemaTest {
  private static final String RESOURCE = "io/hooklens/schemas/settings.schema.json";
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  /** Keys of the section that belong to clients: the server accepts and ignores them. */
  private static final Set<String> CLIENT_KEYS = Set.of("trace");

  private static JsonNode schemaJson;
  private static JsonSchema schema;

  @BeforeAll
  static void load() throws IOException {
    try (InputStream in = SettingsSchemaTest.class.getClassLoader().getResourceAsStream(RESOURCE)) {
      assertNotNull(in, RESOURCE + " is not on the classpath");
      schemaJson = new ObjectMapper().readTree(in);
    }
    JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    JsonSchema meta = factory.getSchema(SchemaLocation.of(schemaJson.path("$schema").asText()));
    assertEquals(Set.of(), meta.validate(schemaJson), "the settings schema is a valid draft 2020-12 schema");
    schema = factory.getSchema(schemaJson);
  }

  /** A leaf setting: its path below the section and its schema. */
  private record Leaf(List<String> path, JsonNode schema) {
    String name() {
      return String.join(".", path);
    }
  }

  private static List<Leaf> leaves() {
    List<Leaf> out = new ArrayList<>();
    collect(schemaJson, List.of(), out);
    assertFalse(out.isEmpty());
    return out;
  }

  private static void collect(JsonNode node, List<String> path, List<Leaf> out) {
    node.path("properties").fields().forEachRemaining(p -> {
      List<String> at = new ArrayList<>(path);
      at.add(p.getKey());
      if (path.isEmpty() && CLIENT_KEYS.contains(p.getKey())) {
        return;
      }
      if (p.getValue().has("properties")) {
        collect(p.getValue(), at, out);
      } else {
        out.add(new Leaf(at, p.getValue()));
      }
    });
  }

  private static ObjectNode section(List<String> path, JsonNode value) {
    ObjectNode root = NODES.objectNode();
    ObjectNode at = root;
    for (int i = 0; i < path.size() - 1; i++) {
      at = at.putObject(path.get(i));
    }
    at.set(path.get(path.size() - 1), value);
    return root;
  }

  private static List<String> serverProblems(JsonNode section) {
    List<String> problems = new ArrayList<>();
    Settings.read(JsonParser.parseString(section.toString()).getAsJsonObject(), BuiltInRules.registry(),
        problems::add);
    return problems;
  }

  private static Set<String> types(JsonNode leaf) {
    Set<String> types = new TreeSet<>();
    JsonNode t = leaf.path("type");
    if (t.isArray()) {
      t.forEach(n -> types.add(n.asText()));
    } else if (t.isTextual()) {
      types.add(t.asText());
    }
    return types;
  }

  /** Values the schema allows for a leaf: its enum, examples, default, bounds, and a valid item or entry. */
  private static List<JsonNode> allowed(Leaf leaf) {
    JsonNode s = leaf.schema();
    List<JsonNode> values = new ArrayList<>();
    s.path("enum").forEach(values::add);
    s.path("examples").forEach(values::add);
    if (s.has("default")) {
      values.add(s.get("default"));
    }
    if (s.has("minimum")) {
      values.add(s.get("minimum"));
      values.add(s.get("maximum"));
    }
    JsonNode entry = s.path("additionalProperties");
    entry.path("enum").forEach(v -> values.add(NODES.objectNode().set("HL401", v)));
    return values;
  }

  /** Values of every JSON type the leaf does not allow, and numbers just past its bounds. */
  private static List<JsonNode> refused(Leaf leaf) {
    Set<String> types = types(leaf.schema());
    Map<String, JsonNode> samples = new LinkedHashMap<>();
    samples.put("string", NODES.textNode("loud"));
    samples.put("number", NODES.numberNode(2.5));
    samples.put("integer", NODES.numberNode(7));
    samples.put("boolean", NODES.booleanNode(true));
    samples.put("object", NODES.objectNode().put("a", "b"));
    samples.put("array", NODES.arrayNode().add("a"));
    List<JsonNode> values = new ArrayList<>();
    samples.forEach((type, value) -> {
      boolean allowed = types.contains(type) || (type.equals("integer") && types.contains("number"));
      if (!allowed) {
        values.add(value);
      }
    });
    JsonNode s = leaf.schema();
    if (s.has("minimum")) {
      values.add(NODES.numberNode(s.get("minimum").asLong() - 1));
      values.add(NODES.numberNode(s.get("maximum").asLong() + 1));
    }
    if (s.has("pattern") || s.has("enum")) {
      // Upper case and '!' fit no pattern here: not a version, a release name or a namespace.
      values.add(NODES.textNode("Loud!"));
    }
    JsonNode items = s.path("items");
    if (!items.isMissingNode()) {
      values.add(NODES.arrayNode().add(NODES.objectNode()));
      values.add(NODES.arrayNode().add(" "));
    }
    JsonNode entry = s.path("additionalProperties");
    if (entry.isObject()) {
      values.add(NODES.objectNode().set("HL401", NODES.arrayNode()));
      if (entry.has("enum")) {
        values.add(NODES.objectNode().put("HL401", "loud"));
      }
    }
    return values;
  }

  @Test
  void everyValueTheSchemaAllowsIsReadWithoutAProblem() {
    int checked = 0;
    for (Leaf leaf : leaves()) {
      List<JsonNode> values = allowed(leaf);
      values.add(NODES.nullNode());
      for (JsonNode v : values) {
        ObjectNode section = section(leaf.path(), v);
        assertEquals(Set.of(), schema.validate(section), leaf.name() + " = " + v + " must be valid by the schema");
        assertEquals(List.of(), serverProblems(section), leaf.name() + " = " + v);
        if (!v.isNull()) {
          Settings read = Settings.read(JsonParser.parseString(section.toString()).getAsJsonObject(),
              BuiltInRules.registry(), p -> { });
          boolean isDefault = v.equals(leaf.schema().get("default"));
          if (!isDefault) {
            assertNotEquals(Settings.DEFAULT, read, leaf.name() + " = " + v + " must be taken");
          }
        }
        checked++;
      }
    }
    assertTrue(checked >= 15, "checked " + checked);
  }

  @Test
  void everyValueTheSchemaRefusesIsReported() {
    for (Leaf leaf : leaves()) {
      for (JsonNode v : refused(leaf)) {
        ObjectNode section = section(leaf.path(), v);
        assertFalse(schema.validate(section).isEmpty(), leaf.name() + " = " + v + " must be refused by the schema");
        assertFalse(serverProblems(section).isEmpty(), leaf.name() + " = " + v + " must be reported by the server");
      }
    }
  }

  @Test
  void unknownKeysAreReportedAtEveryLevel() {
    List<List<String>> objects = new ArrayList<>();
    objects.add(List.of());
    schemaJson.path("properties").fields().forEachRemaining(p -> {
      if (p.getValue().has("properties")) {
        objects.add(List.of(p.getKey()));
      }
    });
    for (List<String> at : objects) {
      List<String> path = new ArrayList<>(at);
      path.add("colour");
      ObjectNode section = section(path, NODES.textNode("blue"));
      assertFalse(schema.validate(section).isEmpty(), section + " must be refused by the schema");
      assertFalse(serverProblems(section).isEmpty(), section + " must be reported by the server");
    }
  }

  private static final Pattern KNOWN = Pattern.compile("unknown setting hooklens\\.(?:(\\w+)\\.)?colour ignored;"
      + " known: (.*)");

  @Test
  void theServerKnowsExactlyTheSchemasKeys() {
    Map<String, Set<String>> schemaKeys = new LinkedHashMap<>();
    schemaKeys.put("", keys(schemaJson, true));
    schemaJson.path("properties").fields().forEachRemaining(p -> {
      if (p.getValue().has("properties")) {
        schemaKeys.put(p.getKey(), keys(p.getValue(), false));
      }
    });
    Map<String, Set<String>> serverKeys = new LinkedHashMap<>();
    for (String object : schemaKeys.keySet()) {
      List<String> path = object.isEmpty() ? List.of("colour") : List.of(object, "colour");
      for (String problem : serverProblems(section(path, NODES.textNode("blue")))) {
        Matcher m = KNOWN.matcher(problem);
        assertTrue(m.matches(), problem);
        serverKeys.put(m.group(1) == null ? "" : m.group(1), new TreeSet<>(List.of(m.group(2).split(", "))));
      }
    }
    assertEquals(schemaKeys, serverKeys);
  }

  private static Set<String> keys(JsonNode object, boolean top) {
    Set<String> keys = new TreeSet<>();
    object.path("properties").fieldNames().forEachRemaining(k -> {
      if (!top || !CLIENT_KEYS.contains(k)) {
        keys.add(k);
      }
    });
    return keys;
  }
}
