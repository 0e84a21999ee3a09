package io.hooklens.bench.lsp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.victools.jsonschema.generator.CustomDefinition;
import com.github.victools.jsonschema.generator.Option;
import com.github.victools.jsonschema.generator.OptionPreset;
import com.github.victools.jsonschema.generator.SchemaBuilder;
import com.github.victools.jsonschema.generator.SchemaGenerator;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfigBuilder;
import com.github.victools.jsonschema.generator.SchemaVersion;
import com.github.victools.jsonschema.module.jackson.JacksonModule;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a JSON schema (draft 7) of the common Kubernetes kinds, generated from the fabric8 model
 * classes, for yaml-language-server: it cannot download its own Kubernetes schema here. Strict as
 * the published "standalone-strict" schemas are (unknown properties are errors), with string maps
 * (labels, annotations) typed by their values. Deterministic: the same file on every run.
 *
 * <p>Usage: {@code KubernetesSchema OUT.json}
 */
public final class KubernetesSchema {
  /** The kinds the schema knows, each selected by its {@code kind}; other kinds are not checked. */
  static final Map<String, Class<?>> KINDS = kinds();

  private KubernetesSchema() {}

  private static Map<String, Class<?>> kinds() {
    Map<String, Class<?>> k = new LinkedHashMap<>();
    for (Class<?> c : List.of(Pod.class, Job.class, CronJob.class, Deployment.class, StatefulSet.class,
        DaemonSet.class, Service.class, ConfigMap.class, Secret.class, ServiceAccount.class, Role.class,
        RoleBinding.class, ClusterRole.class, ClusterRoleBinding.class, Namespace.class,
        PersistentVolumeClaim.class, Event.class, Ingress.class)) {
      k.put(c.getSimpleName(), c);
    }
    return k;
  }

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: KubernetesSchema OUT.json");
      System.exit(2);
    }
    Path out = Path.of(args[0]);
    if (out.getParent() != null) {
      Files.createDirectories(out.getParent());
    }
    Files.writeString(out, generate());
  }

  static String generate() throws IOException {
    SchemaBuilder builder = generator().buildMultipleSchemaDefinitions();
    ObjectMapper mapper = new ObjectMapper();
    ObjectNode root = mapper.createObjectNode();
    root.put("$schema", "http://json-schema.org/draft-07/schema#");
    ArrayNode allOf = root.putArray("allOf");
    for (Map.Entry<String, Class<?>> kind : KINDS.entrySet()) {
      ObjectNode when = allOf.addObject();
      ObjectNode condition = when.putObject("if");
      condition.putObject("properties").putObject("kind").put("const", kind.getKey());
      condition.putArray("required").add("kind");
      when.set("then", builder.createSchemaReference(kind.getValue()));
    }
    root.set("definitions", builder.collectDefinitions("definitions"));
    return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
  }

  /** Draft 7, strict, from the fabric8 classes: one per file as here, or per kind as {@link KubeconformSchemas}. */
  static SchemaGenerator generator() {
    SchemaGeneratorConfigBuilder config = new SchemaGeneratorConfigBuilder(SchemaVersion.DRAFT_7,
        OptionPreset.PLAIN_JSON)
        .with(new JacksonModule())
        .with(Option.FORBIDDEN_ADDITIONAL_PROPERTIES_BY_DEFAULT, Option.MAP_VALUES_AS_ADDITIONAL_PROPERTIES,
            Option.DEFINITIONS_FOR_ALL_OBJECTS);
    // The API accepts either form for these; their Java classes would say "object".
    config.forTypesInGeneral().withCustomDefinitionProvider((type, context) -> {
      Class<?> erased = type.getErasedType();
      if (erased != IntOrString.class && erased != Quantity.class) {
        return null;
      }
      ObjectNode node = context.getGeneratorConfig().createObjectNode();
      ArrayNode types = node.putArray("type");
      if (erased == IntOrString.class) {
        types.add("integer").add("string");
      } else {
        types.add("string").add("number");
      }
      return new CustomDefinition(node, CustomDefinition.DefinitionType.INLINE,
          CustomDefinition.AttributeInclusion.NO);
    });
    // fabric8's catch-all for unknown fields; the API has no such property.
    config.forFields().withIgnoreCheck(field -> field.getName().equals("additionalProperties"));
    return new SchemaGenerator(config.build());
  }
}
