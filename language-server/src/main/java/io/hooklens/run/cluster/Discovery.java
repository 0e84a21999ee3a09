package io.hooklens.run.cluster;

import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIGroupBuilder;
import io.fabric8.kubernetes.api.model.APIGroupListBuilder;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceBuilder;
import io.fabric8.kubernetes.api.model.APIResourceListBuilder;
import io.fabric8.kubernetes.api.model.APIVersionsBuilder;
import io.fabric8.kubernetes.api.model.GroupVersionForDiscovery;
import io.fabric8.kubernetes.api.model.ServerAddressByClientCIDR;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
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

  private Discovery() {}

  /** Request path (without query) to JSON body. */
  static Map<String, String> documents(String serverAddress) {
    Map<String, String> docs = new LinkedHashMap<>();
    docs.put("/version", "{\"major\":\"1\",\"minor\":\"34\",\"gitVersion\":\"" + KUBERNETES_VERSION
        + "\",\"platform\":\"linux/amd64\"}");
    docs.put("/api", Serialization.asJson(new APIVersionsBuilder().withVersions("v1")
        .withServerAddressByClientCIDRs(new ServerAddressByClientCIDR("0.0.0.0/0", serverAddress)).build()));
    List<APIGroup> groups = new ArrayList<>();
    for (Group group : GROUPS) {
      String prefix = group.name().isEmpty() ? "/api/" : "/apis/" + group.name() + "/";
      docs.put(prefix + group.version(), Serialization.asJson(new APIResourceListBuilder()
          .withGroupVersion(group.groupVersion())
          .withResources(group.kinds().stream().map(Discovery::resource).toList()).build()));
      if (!group.name().isEmpty()) {
        GroupVersionForDiscovery version = new GroupVersionForDiscovery(group.groupVersion(), group.version());
        APIGroup apiGroup = new APIGroupBuilder().withName(group.name()).withVersions(version)
            .withPreferredVersion(version).build();
        groups.add(apiGroup);
        docs.put("/apis/" + group.name(), Serialization.asJson(apiGroup));
      }
    }
    docs.put("/apis", Serialization.asJson(new APIGroupListBuilder().withGroups(groups).build()));
    return docs;
  }

  private static APIResource resource(Kind kind) {
    return new APIResourceBuilder().withName(kind.plural()).withSingularName(kind.kind().toLowerCase())
        .withKind(kind.kind()).withNamespaced(kind.namespaced())
        .withVerbs("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch").build();
  }
}
