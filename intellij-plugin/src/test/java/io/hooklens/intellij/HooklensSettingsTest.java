package io.hooklens.intellij;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class HooklensSettingsTest {
  private static final Path REPO = Path.of(System.getProperty("hooklens.repoRoot", ".."));
  private final HooklensSettings settings = new HooklensSettings();

  @Test
  void theSchemaDescribesTheHooklensSectionWithTheServersSettingsSchema() throws IOException {
    JsonObject schema = JsonParser.parseString(settings.getDefaultConfigurationSchemaContent()).getAsJsonObject();
    JsonObject server = JsonParser.parseString(Files.readString(REPO.resolve("schemas/settings.schema.json")))
        .getAsJsonObject();
    assertEquals(server, schema.getAsJsonObject("properties").get(HooklensSettings.SECTION));
  }

  @Test
  void theDefaultConfigurationIsAnEmptySectionSoThatHooklensYamlDecides() {
    JsonObject config = JsonParser.parseString(settings.getDefaultConfigurationContent()).getAsJsonObject();
    assertEquals(1, config.size());
    assertEquals(new JsonObject(), config.getAsJsonObject(HooklensSettings.SECTION));
  }

  /** Helm values such as "image.tag" under helm.set must reach the server as keys, not nested objects. */
  @Test
  void dottedKeysAreNotExpanded() {
    assertFalse(settings.isDefaultExpandConfiguration());
  }
}
