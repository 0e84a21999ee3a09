package io.hooklens.run;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.hooklens.core.model.Resource;
import io.hooklens.core.yaml.JsonTree;

/**
 * Turns the engine's parsed manifests into objects for the API: the typed fabric8 class for a kind it knows,
 * else a generic resource. Values are read as Kubernetes decodes YAML (merge keys, YAML types).
 */
public final class Manifests {
  private Manifests() {}

  /** The object a resource describes, in {@code namespace} unless it names its own. */
  public static HasMetadata toObject(Resource resource, String namespace) {
    HasMetadata object =
        Serialization.unmarshal(Serialization.asJson(JsonTree.of(resource.root())), HasMetadata.class);
    if (object.getMetadata().getNamespace() == null) {
      object.getMetadata().setNamespace(namespace);
    }
    return object;
  }

  /** {@code Kind/name}, as kubectl names objects. */
  public static String describe(HasMetadata object) {
    return object.getKind() + "/" + object.getMetadata().getName();
  }
}
