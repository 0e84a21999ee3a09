package io.hooklens.intellij;

import com.redhat.devtools.lsp4ij.settings.contributors.LanguageServerSettingsContributor;
import com.redhat.devtools.lsp4ij.settings.contributors.ServerConfigurationContributor;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The server's settings in LSP4IJ's configuration editor (Settings | Languages &amp; Frameworks | Language
 * Servers | Hooklens | Configuration). LSP4IJ answers the server's {@code workspace/configuration} request for
 * the {@code hooklens} section from that JSON and sends it again on {@code workspace/didChangeConfiguration}
 * when it is edited: the same section, with the same keys, that the VS Code extension sends, described by
 * {@code schemas/settings.schema.json}.
 */
public final class HooklensSettings implements LanguageServerSettingsContributor, ServerConfigurationContributor {
  /** The section the server asks for. */
  public static final String SECTION = "hooklens";

  /** An empty section: every setting left out is decided by the nearest {@code .hooklens.yaml}. */
  static final String DEFAULT_CONFIGURATION = "{\n  \"" + SECTION + "\": {}\n}\n";

  @Override
  public ServerConfigurationContributor getServerConfigurationContributor() {
    return this;
  }

  @Override
  public String getDefaultConfigurationContent() {
    return DEFAULT_CONFIGURATION;
  }

  /**
   * Not expanded: LSP4IJ would otherwise split every dotted key at any depth once one top-level key has a
   * dot, and a Helm value such as {@code "image.tag"} under {@code helm.set} would become nested objects.
   */
  @Override
  public boolean isDefaultExpandConfiguration() {
    return false;
  }

  /** The server's settings schema, as the value of the {@code hooklens} key. */
  @Override
  public String getDefaultConfigurationSchemaContent() {
    return "{\n  \"type\": \"object\",\n  \"properties\": {\n    \"" + SECTION + "\": " + sectionSchema().strip()
        + "\n  }\n}\n";
  }

  /** {@code schemas/settings.schema.json}, copied into the plugin jar by the build. */
  static String sectionSchema() {
    try (InputStream in = HooklensSettings.class.getResourceAsStream("settings.schema.json")) {
      if (in == null) {
        throw new IllegalStateException("settings.schema.json is missing from the plugin jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
