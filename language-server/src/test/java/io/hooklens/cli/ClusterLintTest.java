package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.hooklens.run.RunFixture;
import io.hooklens.run.RunFixture.Kind;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code lint --context}: the workloads and Helm hooks a real control plane serves, linted read-only. */
@Tag("slow")
class ClusterLintTest {
  private static final RunFixture.PerClass CLUSTERS = new RunFixture.PerClass();
  private static final String WEB = """
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web}
      spec:
        selector: {matchLabels: {app: web}}
        template:
          metadata: {labels: {app: web}}
          spec:
            terminationGracePeriodSeconds: 10
            containers:
            - name: web
              image: nginx
              lifecycle:
                preStop: {exec: {command: [sh, -c, sleep 60]}}
      """;
  private static final String HOOK = """
      apiVersion: batch/v1
      kind: Job
      metadata:
        name: migrate
        annotations:
          helm.sh/hook: pre-upgrade
          helm.sh/hook-delete-policy: before-hook-creaton
      spec:
        template:
          spec:
            restartPolicy: Never
            containers: [{name: m, image: busybox}]
      """;

  @TempDir
  static Path dir;
  private static KubernetesClient admin;
  private static Path kubeconfig;

  @BeforeAll
  static void cluster() throws Exception {
    RunFixture fixture = CLUSTERS.get(Kind.ENVTEST);
    admin = fixture.client;
    kubeconfig = fixture.cluster.writeKubeconfig(dir.resolve("kubeconfig"));
    for (String ns : List.of("audit-a", "audit-b")) {
      admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
          .create();
      admin.load(new java.io.ByteArrayInputStream(WEB.getBytes(StandardCharsets.UTF_8))).inNamespace(ns).create();
    }
    for (int version : List.of(1, 2)) {
      admin.secrets().inNamespace("audit-a").resource(release("shop", version, version == 2 ? HOOK
          : HOOK.replace("before-hook-creaton", "before-hook-creation"))).create();
    }
  }

  @AfterAll
  static void stop() {
    CLUSTERS.close();
  }

  /** A release secret as Helm 3 writes it: base64 of gzipped JSON, in the secret's data. */
  private static io.fabric8.kubernetes.api.model.Secret release(String name, int version, String hook)
      throws Exception {
    String json = Serialization.asJson(Map.of("name", name, "version", version, "hooks",
        List.of(Map.of("name", "migrate", "path", "templates/migrate.yaml", "manifest", hook))));
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
      out.write(json.getBytes(StandardCharsets.UTF_8));
    }
    byte[] helm = Base64.getEncoder().encode(gz.toByteArray());
    return new SecretBuilder().withNewMetadata().withName("sh.helm.release.v1." + name + ".v" + version)
        .addToLabels(Map.of("owner", "helm", "name", name, "version", String.valueOf(version))).endMetadata()
        .withType("helm.sh/release.v1").addToData("release", Base64.getEncoder().encodeToString(helm)).build();
  }

  @Test
  void findingsOfTheClusterCarryItsLocationAndTheNamespaceFilterHolds() {
    CliRun run = CliRun.of("lint", "--context", "hooklens", "--kubeconfig", kubeconfig.toString(), "-n", "audit-a",
        "-f", "text");
    assertEquals(1, run.exit(), run.err());
    assertTrue(run.out().contains("cluster://hooklens/audit-a/Deployment/web"), run.out());
    assertTrue(run.out().contains("prestop-budget-exceeds-grace"), run.out());
    assertTrue(run.out().contains("cluster://hooklens/audit-a/HelmRelease/shop/templates/migrate.yaml"), run.out());
    assertTrue(run.out().contains("helm-hook-delete-policy-unknown"), run.out());
    assertFalse(run.out().contains("audit-b"), run.out());
    assertFalse(run.out().contains("managedFields"), run.out());
  }

  @Test
  void everyFormatCarriesTheClusterLocation() {
    for (String format : List.of("json", "sarif", "github", "junit", "checkstyle")) {
      CliRun run = CliRun.of("lint", "--context", "hooklens", "--kubeconfig", kubeconfig.toString(), "-A",
          "-f", format);
      assertEquals(1, run.exit(), format + ": " + run.err());
      // GitHub's workflow commands escape the colon of a property value.
      String location = format.equals("github") ? "cluster%3A//hooklens/audit-b/Deployment/web"
          : "cluster://hooklens/audit-b/Deployment/web";
      assertTrue(run.out().contains(location), format + ": " + run.out());
    }
  }

  @Test
  void aUserWhoMayNotListSecretsIsToldWhatCouldNotBeRead() throws Exception {
    String ns = "audit-a";
    admin.serviceAccounts().inNamespace(ns).resource(new ServiceAccountBuilder().withNewMetadata()
        .withName("reader").endMetadata().build()).create();
    admin.rbac().roles().inNamespace(ns).resource(new RoleBuilder().withNewMetadata().withName("reader")
        .endMetadata().withRules(new PolicyRuleBuilder().withApiGroups("", "apps", "batch")
            .withResources("pods", "deployments", "statefulsets", "daemonsets", "jobs", "cronjobs")
            .withVerbs("list").build()).build()).create();
    admin.rbac().roleBindings().inNamespace(ns).resource(new RoleBindingBuilder().withNewMetadata()
        .withName("reader").endMetadata().withNewRoleRef("rbac.authorization.k8s.io", "Role", "reader")
        .addNewSubject().withKind("ServiceAccount").withName("reader").withNamespace(ns).endSubject().build())
        .create();
    String token = admin.serviceAccounts().inNamespace(ns).withName("reader")
        .tokenRequest(new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build())
        .getStatus().getToken();
    Path limited = dir.resolve("reader-kubeconfig");
    Files.writeString(limited, Files.readString(kubeconfig).replaceFirst("token: \\S+", "token: " + token));
    CliRun run = CliRun.of("lint", "--context", "hooklens", "--kubeconfig", limited.toString(), "-n", ns);
    assertEquals(2, run.exit(), run.err());
    assertTrue(run.err().contains("hooklens: could not read Secret in namespace audit-a on hooklens: forbidden"),
        run.err());
    assertTrue(run.out().contains("cluster://hooklens/audit-a/Deployment/web"), run.out());
  }
}
