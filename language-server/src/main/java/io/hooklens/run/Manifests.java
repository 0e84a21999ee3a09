package io.hooklens.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.hooklens.core.model.Resource;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YScalar;
import io.hooklens.core.yaml.YSeq;
import java.util.OptionalLong;

/**
 * Turns the engine's parsed manifests into objects for the API: the typed fabric8 class for a kind it knows,
 * else a generic resource. Values keep their YAML types, so a weight written as a bare number reaches the API
 * as a number, as it would from Helm.
 */
public final class Manifests {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private Manifests() {}

  /** The object a resource describes, in {@code namespace} unless it names its own. */
  public static HasMetadata toObject(Resource resource, String namespace) {
    HasMetadata object = Serialization.unmarshal(Serialization.asJson(json(resource.root())), HasMetadata.class);
    if (object.getMetadata().getNamespace() == null) {
      object.getMetadata().setNamespace(namespace);
    }
    return object;
  }

  /** A YAML node as JSON: merge keys applied, scalars with their YAML types. */
  public static JsonNode json(YNode node) {
    if (node instanceof YMap map) {
      ObjectNode out = JSON.objectNode();
      for (YMap.Entry e : map.effectiveEntries()) {
        out.set(e.key().value(), json(e.value()));
      }
      return out;
    }
    if (node instanceof YSeq seq) {
      ArrayNode out = JSON.arrayNode();
      seq.items().forEach(item -> out.add(json(item)));
      return out;
    }
    YScalar scalar = (YScalar) node;
    return switch (scalar.type()) {
      case NULL -> JSON.nullNode();
      case BOOL -> JSON.booleanNode(Boolean.parseBoolean(scalar.value()));
      case INT -> {
        OptionalLong n = scalar.asLong();
        yield n.isPresent() ? JSON.numberNode(n.getAsLong()) : JSON.textNode(scalar.value());
      }
      case FLOAT -> number(scalar.value());
      case STRING -> JSON.textNode(scalar.value());
    };
  }

  private static JsonNode number(String value) {
    try {
      return JSON.numberNode(Double.parseDouble(value));
    } catch (NumberFormatException e) {
      return JSON.textNode(value);
    }
  }

  /** {@code Kind/name}, as kubectl names objects. */
  public static String describe(HasMetadata object) {
    return object.getKind() + "/" + object.getMetadata().getName();
  }
}
