package io.hooklens.run.cluster;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The discovery documents kubectl reads before any request (the CRUD mock answers them with an empty
 * list): the kinds the runner creates and reads, per group and version.
 */
final class Discovery {
  static final String KUBERNETES_VERSION = "v1.34.0-hooklens";

  private record Kind(String plural, String kind, boolean namespaced) {}

  private record Group(String name, String version, List<Kind> kinds) {
    String groupVersion() {
      return name.isEmpty() ? version : name + "/" + version;
    }
  }

  private static final List<Group> GROUPS = List.of(
      new Group("", "v1", List.of(new Kind("pods", "Pod", true), new Kind("events", "Event", true),
          new Kind("configmaps", "ConfigMap", true), new Kind("secrets", "Secret", true),
          new Kind("services", "Service", true), new Kind("serviceaccounts", "ServiceAccount", true),
          new Kind("namespaces", "Namespace", false))),
      new Group("batch", "v1", List.of(new Kind("jobs", "Job", true), new Kind("cronjobs", "CronJob", true))),
      new Group("apps", "v1", List.of(new Kind("deployments", "Deployment", true),
          new Kind("statefulsets", "StatefulSet", true), new Kind("daemonsets", "DaemonSet", true),
          new Kind("replicasets", "ReplicaSet", true))),
      new Group("apps.openshift.io", "v1", List.of(new Kind("deploymentconfigs", "DeploymentConfig", true))));

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private Discovery() {}

  /**
   * Request path (without query) to JSON body. Written as plain JSON trees: serialising the model's
   * discovery classes would build their bean serialisers, a noticeable part of a cold start.
   */
  static Map<String, String> documents(String serverAddress) {
    Map<String, String> docs = new LinkedHashMap<>();
    docs.put("/version", "{\"major\":\"1\",\"minor\":\"34\",\"gitVersion\":\"" + KUBERNETES_VERSION
        + "\",\"platform\":\"linux/amd64\"}");
    ObjectNode versions = object("APIVersions");
    versions.putArray("serverAddressByClientCIDRs").addObject().put("clientCIDR", "0.0.0.0/0")
        .put("serverAddress", serverAddress);
    versions.putArray("versions").add("v1");
    docs.put("/api", versions.toString());
    ObjectNode list = object("APIGroupList");
    ArrayNode groups = list.putArray("groups");
    for (Group group : GROUPS) {
      String prefix = group.name().isEmpty() ? "/api/" : "/apis/" + group.name() + "/";
      ObjectNode resources = object("APIResourceList").put("groupVersion", group.groupVersion());
      ArrayNode items = resources.putArray("resources");
      group.kinds().forEach(kind -> items.add(resource(kind)));
      docs.put(prefix + group.version(), resources.toString());
      if (!group.name().isEmpty()) {
        ObjectNode apiGroup = object("APIGroup").put("name", group.name());
        apiGroup.putObject("preferredVersion").put("groupVersion", group.groupVersion())
            .put("version", group.version());
        apiGroup.putArray("versions").addObject().put("groupVersion", group.groupVersion())
            .put("version", group.version());
        groups.add(apiGroup);
        docs.put("/apis/" + group.name(), apiGroup.toString());
      }
    }
    docs.put("/apis", list.toString());
    return docs;
  }

  private static ObjectNode object(String kind) {
    return JSON.objectNode().put("apiVersion", "v1").put("kind", kind);
  }

  private static ObjectNode resource(Kind kind) {
    ObjectNode resource = JSON.objectNode().put("kind", kind.kind()).put("name", kind.plural())
        .put("namespaced", kind.namespaced()).put("singularName", kind.kind().toLowerCase(Locale.ROOT));
    ArrayNode verbs = resource.putArray("verbs");
    List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch").forEach(verbs::add);
    return resource;
  }
}
