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
import java.util.Random;
import java.util.regex.Pattern;
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

  /** A YAML text without resources is a manifest when a multi-line search for a top-level key would say so. */
  @Test
  void theKeyIsFoundWhereAMultiLineSearchFindsIt() {
    Pattern key = Pattern.compile("^(?:---[ \\t]+)?(?:\\{[ \\t]*)?[\"']?(?:apiVersion|kind)[\"']?[ \\t]*:",
        Pattern.MULTILINE);
    String[] parts = {"kind", "apiVersion", ":", " ", "\t", "---", "{", "\"", "'", "\n", "\r", "\r\n", "\u0085",
        "\u2028", "\u2029", "x", "- ", "#"};
    Random random = new Random(11);
    for (int n = 0; n < 5_000; n++) {
      StringBuilder sb = new StringBuilder();
      for (int i = random.nextInt(8); i > 0; i--) {
        sb.append(parts[random.nextInt(parts.length)]);
      }
      String text = sb.toString();
      HookDocument doc = HookDocument.of("a.yaml", new YamlReader().read(new SourceText(text), false));
      if (doc.resources().isEmpty()) {
        assertEquals(key.matcher(text).find(), ManifestFiles.kubernetesLike(doc, false), text);
      }
    }
  }
}
