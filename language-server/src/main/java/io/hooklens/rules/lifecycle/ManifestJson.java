package io.hooklens.rules.lifecycle;

import com.fasterxml.jackson.databind.JsonNode;
import io.hooklens.core.yaml.YNode;

/** A parsed manifest as the JSON Kubernetes decodes from it, the same the schema checks validate. */
public final class ManifestJson {
  private ManifestJson() {}

  /** Merge keys applied, the last of duplicate keys kept, scalars with their YAML types. */
  public static JsonNode of(YNode node) {
    return SchemaCheck.toJson(node);
  }
}
