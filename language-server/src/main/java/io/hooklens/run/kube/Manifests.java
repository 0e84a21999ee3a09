package io.hooklens.run.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.hooklens.core.model.Resource;
import io.hooklens.core.yaml.JsonTree;

/**
 * Turns the engine's parsed manifests into objects for the API: the typed fabric8 class for a kind it knows,
 * else a generic resource. Values are read as Kubernetes decodes YAML (merge keys, YAML types).
 */
public final class Manifests {
  private Manifests() {}

  /**
   * The object a resource describes, in {@code namespace} whatever namespace it names: a run keeps to its own
   * namespace, so that on a real cluster it never touches the namespaces a manifest names (a chart rendered by
   * {@code helm template} names {@code default}).
   */
  public static HasMetadata toObject(Resource resource, String namespace) {
    HasMetadata object =
        Serialization.unmarshal(Serialization.asJson(JsonTree.of(resource.root())), HasMetadata.class);
    if (object.getMetadata() == null) {
      object.setMetadata(new ObjectMeta());
    }
    object.getMetadata().setNamespace(namespace);
    return object;
  }

  /** {@code Kind/name}, as kubectl names objects. */
  public static String describe(HasMetadata object) {
    return object.getKind() + "/" + object.getMetadata().getName();
  }
}
