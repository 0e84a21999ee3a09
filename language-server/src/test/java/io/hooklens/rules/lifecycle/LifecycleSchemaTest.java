package io.hooklens.rules.lifecycle;

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
import io.hooklens.core.yaml.SourceText;
import io.hooklens.core.yaml.YamlReader;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The published lifecycle schema, as packaged by the schemas module. */
class LifecycleSchemaTest {
  private static final String DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema";

  private static JsonNode schemaFromClasspath() throws IOException {
    try (InputStream in = LifecycleSchemaTest.class.getClassLoader()
        .getResourceAsStream(LifecycleFieldType.SCHEMA_RESOURCE)) {
      assertNotNull(in, LifecycleFieldType.SCHEMA_RESOURCE + " is not on the classpath");
      return new ObjectMapper().readTree(in);
    }
  }

  private static Set<ValidationMessage> againstMetaSchema(JsonNode schema) {
    // The factory maps json-schema.org to the copy of the meta-schemas in its jar: no network.
    JsonSchema meta = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
        .getSchema(SchemaLocation.of(DRAFT_2020_12));
    return meta.validate(schema);
  }

  @Test
  void isAValidDraft202012Schema() throws IOException {
    JsonNode schema = schemaFromClasspath();
    assertEquals(DRAFT_2020_12, schema.path("$schema").asText());
    assertEquals(Set.of(), againstMetaSchema(schema));
  }

  @Test
  void theMetaSchemaCheckCatchesAnInvalidSchema() throws IOException {
    ObjectNode broken = (ObjectNode) schemaFromClasspath();
    broken.put("type", "mapping");
    assertFalse(againstMetaSchema(broken).isEmpty(), "\"type\": \"mapping\" must be refused");
  }

  @Test
  void hasAnIdATitleAndDescriptionsForEveryField() throws IOException {
    JsonNode schema = schemaFromClasspath();
    assertTrue(schema.path("$id").asText().startsWith("https://"), "$id");
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

  @Test
  void acceptsACompleteLifecycle() {
    String yaml = """
        postStart:
          httpGet: {path: /started, port: http, host: 10.0.0.1, scheme: HTTPS,
                    httpHeaders: [{name: X-Started, value: "1"}]}
        preStop:
          exec: {command: ["/bin/sh", "-c", "sleep 5"]}
        stopSignal: SIGTERM
        """;
    var root = new YamlReader().read(new SourceText(yaml), false).documents().get(0).root();
    assertEquals(List.of(), SchemaCheck.load(LifecycleFieldType.SCHEMA_RESOURCE).validate(root));
  }
}
