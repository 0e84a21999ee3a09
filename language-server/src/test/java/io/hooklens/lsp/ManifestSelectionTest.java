package io.hooklens.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.yaml.SourceText;
import io.hooklens.core.yaml.YamlReader;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The table of document-selection cases that the VS Code extension's tests run too. */
class ManifestSelectionTest {
  @Test
  void theServerSelectsAsTheSharedTableSays() throws IOException {
    JsonNode table;
    try (InputStream in = getClass().getClassLoader().getResourceAsStream("manifest-selection.json")) {
      assertNotNull(in);
      table = new ObjectMapper().readTree(in);
    }
    List<String> wrong = new ArrayList<>();
    assertEquals(true, table.path("cases").size() > 0);
    for (JsonNode c : table.path("cases")) {
      String language = c.path("language").isNull() ? null : c.path("language").asText();
      String path = c.path("path").asText();
      String text = c.path("text").asText();
      boolean json = "json".equalsIgnoreCase(language) || ManifestFiles.isJson(path);
      boolean reads = ManifestFiles.handles("file://" + path, language);
      boolean manifest = ManifestFiles.kubernetesLike(
          HookDocument.of(path, new YamlReader().read(new SourceText(text), json)), json);
      if (reads != c.path("reads").asBoolean() || manifest != c.path("manifest").asBoolean()) {
        wrong.add(c + ": reads " + reads + ", manifest " + manifest);
      }
    }
    assertEquals(List.of(), wrong);
  }
}
