package io.hooklens.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.hooklens.core.yaml.SchemaCheck;
import io.hooklens.core.yaml.SourceText;
import io.hooklens.core.yaml.YamlReader;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The published schemas, as packaged by the schemas module: valid, documented, and with the field sets of the
 * API types they describe, taken from the Jackson properties of fabric8's Kubernetes model.
 */
class PublishedSchemasTest {
  private static final String DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema";
  private static final String LIFECYCLE = "lifecycle.schema.json";
  private static final String DC_HOOK = "deploymentconfig-hook.schema.json";

  /** The API type each schema's root describes; a definition describes the type it is named after. */
  private static final Map<String, String> ROOT_TYPES = Map.of(LIFECYCLE, "Lifecycle", DC_HOOK, "LifecycleHook");

  /**
   * Fields the schemas know that the fabric8 model in the build does not yet: the schemas follow the newest API
   * read, so that a field a newer API server knows is never reported as unknown.
   */
  private static final Map<String, Set<String>> NEWER_THAN_MODEL = Map.of("HTTPGetAction", Set.of("protocol"));

  /**
   * OpenShift's types, which fabric8's openshift-model describes; that artifact is not in the build, so these
   * follow openshift/api apps/v1/types.go as written.
   */
  private static final Set<String> OPENSHIFT_TYPES = Set.of("LifecycleHook", "ExecNewPodHook", "TagImageHook");

  private static JsonNode schemaFromClasspath(String file) throws IOException {
    String resource = "io/hooklens/schemas/" + file;
    try (InputStream in = PublishedSchemasTest.class.getClassLoader().getResourceAsStream(resource)) {
      assertNotNull(in, resource + " is not on the classpath");
      return new ObjectMapper().readTree(in);
    }
  }

  private static Set<ValidationMessage> againstMetaSchema(JsonNode schema) {
    // The factory maps json-schema.org to the copy of the meta-schemas in its jar: no network.
    JsonSchema meta = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
        .getSchema(SchemaLocation.of(DRAFT_2020_12));
    return meta.validate(schema);
  }

  @ParameterizedTest
  @ValueSource(strings = {LIFECYCLE, DC_HOOK})
  void isAValidDraft202012Schema(String file) throws IOException {
    JsonNode schema = schemaFromClasspath(file);
    assertEquals(DRAFT_2020_12, schema.path("$schema").asText());
    assertEquals(Set.of(), againstMetaSchema(schema));
  }

  @Test
  void theMetaSchemaCheckCatchesAnInvalidSchema() throws IOException {
    ObjectNode broken = (ObjectNode) schemaFromClasspath(LIFECYCLE);
    broken.put("type", "mapping");
    assertFalse(againstMetaSchema(broken).isEmpty(), "\"type\": \"mapping\" must be refused");
  }

  @ParameterizedTest
  @ValueSource(strings = {LIFECYCLE, DC_HOOK})
  void hasAnIdATitleAndDescriptionsForEveryField(String file) throws IOException {
    JsonNode schema = schemaFromClasspath(file);
    assertEquals("https://raw.githubusercontent.com/hooklens/hooklens/main/schemas/" + file,
        schema.path("$id").asText());
    assertFalse(schema.path("title").asText().isBlank(), "title");
    assertFalse(schema.path("description").asText().isBlank(), "description");
    List<String> undocumented = new ArrayList<>();
    schema.path("$defs").fields().forEachRemaining(d -> {
      if (d.getValue().path("description").asText().isBlank()) {
        undocumented.add("$defs/" + d.getKey());
      }
    });
    collectUndocumented(schema, "", undocumented);
    assertEquals(List.of(), undocumented);
  }

  /** Each property needs a description of its own or a $ref to a documented definition. */
  private static void collectUndocumented(JsonNode node, String at, List<String> out) {
    node.path("properties").fields().forEachRemaining(p -> {
      if (!p.getValue().has("description") && !p.getValue().has("$ref")) {
        out.add(at + "/properties/" + p.getKey());
      }
    });
    node.path("$defs").fields().forEachRemaining(d -> collectUndocumented(d.getValue(), "$defs/" + d.getKey(), out));
  }

  @ParameterizedTest
  @ValueSource(strings = {LIFECYCLE, DC_HOOK})
  void everyObjectHasTheFieldsOfItsApiType(String file) throws IOException {
    assertEquals(Map.of(), mismatches(file, schemaFromClasspath(file)));
  }

  @Test
  void aFieldMissingFromASchemaIsCaught() throws IOException {
    JsonNode schema = schemaFromClasspath(LIFECYCLE);
    ((ObjectNode) schema.at("/$defs/LifecycleHandler/properties")).remove("sleep");
    assertEquals(Map.of("LifecycleHandler", "missing [sleep]"), mismatches(LIFECYCLE, schema));
  }

  @Test
  void aFieldTheApiLacksIsCaught() throws IOException {
    JsonNode schema = schemaFromClasspath(DC_HOOK);
    ((ObjectNode) schema.at("/$defs/EnvVar/properties")).putObject("valueFromFile");
    assertEquals(Map.of("EnvVar", "extra [valueFromFile]"), mismatches(DC_HOOK, schema));
  }

  /** By type name: the fields a closed object of the schema lacks or has beyond its API type. */
  private static Map<String, String> mismatches(String file, JsonNode schema) {
    Map<String, JsonNode> objects = new TreeMap<>();
    objects.put(ROOT_TYPES.get(file), schema);
    schema.path("$defs").fields().forEachRemaining(d -> {
      if (d.getValue().has("properties")) {
        objects.put(d.getKey(), d.getValue());
      }
    });
    Map<String, String> out = new TreeMap<>();
    objects.forEach((type, object) -> {
      JsonNode additional = object.path("additionalProperties");
      assertTrue(additional.isBoolean() && !additional.asBoolean(), type + " must refuse unknown fields");
      if (OPENSHIFT_TYPES.contains(type)) {
        return;
      }
      Set<String> api = new TreeSet<>(ApiModel.fields(ApiModel.coreType(type)));
      api.addAll(NEWER_THAN_MODEL.getOrDefault(type, Set.of()));
      Set<String> written = new TreeSet<>(SchemaCheck.properties(object));
      Set<String> missing = new TreeSet<>(api);
      missing.removeAll(written);
      Set<String> extra = new TreeSet<>(written);
      extra.removeAll(api);
      List<String> parts = new ArrayList<>();
      if (!missing.isEmpty()) {
        parts.add("missing " + missing);
      }
      if (!extra.isEmpty()) {
        parts.add("extra " + extra);
      }
      if (!parts.isEmpty()) {
        out.put(type, String.join(", ", parts));
      }
    });
    return out;
  }

  @Test
  void acceptsACompleteLifecycle() throws IOException {
    String yaml = """
        postStart:
          httpGet: {path: /started, port: http, host: 10.0.0.1, scheme: HTTPS,
                    httpHeaders: [{name: X-Started, value: "1"}]}
        preStop:
          exec: {command: ["/bin/sh", "-c", "sleep 5"]}
        stopSignal: SIGTERM
        """;
    var root = new YamlReader().read(new SourceText(yaml), false).documents().get(0).root();
    assertEquals(List.of(), SchemaCheck.load("io/hooklens/schemas/" + LIFECYCLE).validate(root));
  }
}
