package io.hooklens.bench.lsp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.ReplicationController;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.networking.v1.IngressClass;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Writes a folder of standalone JSON schemas, one file per kind, generated from the fabric8 model as
 * {@link KubernetesSchema} generates its single file (same strictness), and named as kubeconform
 * looks them up: {@code -schema-location 'DIR/{{.ResourceKind}}{{.KindSuffix}}.json'}, that is
 * {@code deployment-apps-v1.json}, {@code service-v1.json}, {@code clusterrole-rbac-v1.json}.
 *
 * <p>Usage: {@code KubeconformSchemas DIR}
 */
public final class KubeconformSchemas {
  private KubeconformSchemas() {}

  /** The kinds of {@link KubernetesSchema} and the further built-in kinds the corpus manifests use. */
  static List<Class<?>> kinds() {
    List<Class<?>> kinds = new ArrayList<>(KubernetesSchema.KINDS.values());
    kinds.addAll(List.of(IngressClass.class, ValidatingWebhookConfiguration.class,
        MutatingWebhookConfiguration.class, ValidatingAdmissionPolicy.class,
        ValidatingAdmissionPolicyBinding.class, PodDisruptionBudget.class, CustomResourceDefinition.class,
        StorageClass.class, ReplicationController.class, ReplicaSet.class, PodTemplate.class));
    return kinds;
  }

  /** kubeconform's file name: the kind in lower case, the group's first label, the version. */
  @SuppressWarnings("unchecked")
  static String fileName(Class<?> kind) {
    Class<? extends HasMetadata> resource = (Class<? extends HasMetadata>) kind;
    String group = HasMetadata.getGroup(resource);
    String suffix = group.isEmpty() ? "" : "-" + group.split("\\.")[0];
    return (kind.getSimpleName() + suffix + "-" + HasMetadata.getVersion(resource)).toLowerCase(Locale.ROOT)
        + ".json";
  }

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: KubeconformSchemas DIR");
      System.exit(2);
    }
    Path dir = Files.createDirectories(Path.of(args[0]));
    ObjectMapper mapper = new ObjectMapper();
    for (Class<?> kind : kinds()) {
      ObjectNode schema = KubernetesSchema.generator().generateSchema(kind);
      schema.put("$schema", "http://json-schema.org/draft-07/schema#");
      Files.writeString(dir.resolve(fileName(kind)), mapper.writeValueAsString(schema) + "\n");
    }
  }
}
