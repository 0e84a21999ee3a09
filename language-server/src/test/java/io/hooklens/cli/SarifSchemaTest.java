package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SARIF output validates against the official SARIF 2.1.0 JSON schema. */
class SarifSchemaTest {
  @TempDir
  Path dir;

  @Test
  void sarifOutputIsValidSarif210() throws Exception {
    Path f = dir.resolve("my pod.yaml");
    Files.writeString(f, LintCommandTest.OVER_BUDGET + "---\nkind: [broken\n");
    CliRun r = CliRun.of("lint", "--format", "sarif", f.toString());
    assertEquals(1, r.exit(), r.err());

    JsonSchema schema;
    try (InputStream in = SarifSchemaTest.class.getResourceAsStream("/schema/sarif-schema-2.1.0.json")) {
      schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V7).getSchema(in);
    }
    JsonNode sarif = new ObjectMapper().readTree(r.out());
    Set<ValidationMessage> errors = schema.validate(sarif);
    assertEquals(Set.of(), errors, r.out());

    JsonNode run = sarif.at("/runs/0");
    assertTrue(run.at("/tool/driver/rules").size() > 3, "rule metadata is included");
    JsonNode result = run.at("/results/0");
    assertEquals("HL401", result.get("ruleId").asText());
    assertEquals("HL401", run.at("/tool/driver/rules/" + result.get("ruleIndex").asInt() + "/id").asText());
    assertEquals(11, result.at("/locations/0/physicalLocation/region/startLine").asInt());
    assertEquals(9, result.at("/locations/0/physicalLocation/region/startColumn").asInt());
    assertTrue(result.at("/locations/0/physicalLocation/artifactLocation/uri").asText().endsWith("my%20pod.yaml"));
    assertEquals("HL001", run.at("/results/1/ruleId").asText());
    assertEquals("error", run.at("/results/1/level").asText());
  }
}
