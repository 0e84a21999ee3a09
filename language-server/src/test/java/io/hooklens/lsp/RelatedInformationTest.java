package io.hooklens.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DiagnosticRelatedInformation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A finding about a conflict between two places points at the other one as related information: the list a
 * missing name is looked up in, the container a hook names, the strategy type, the other hook with the same
 * identity.
 */
class RelatedInformationTest {
  /** Lines ending in a {@code # (x)} marker are the related places the assertions name. */
  private static final String DEPLOYMENT_CONFIGS = """
      apiVersion: apps.openshift.io/v1
      kind: DeploymentConfig
      metadata:
        name: shop
      spec:
        strategy:
          type: Recreate
          recreateParams:
            pre:
              failurePolicy: Abort
              execNewPod:
                containerName: wbe
                command: ["/migrate"]
                volumes: ["config", "cache"]
            mid:
              failurePolicy: Ignore
              execNewPod:
                command: ["/warm"]
            post:
              failurePolicy: Ignore
              tagImages:
                - containerName: setup
                  to: {kind: ImageStreamTag, name: "shop:done"}
        template:
          spec:
            initContainers:
              - name: setup # (init)
                image: busybox
            containers: # (containers)
              - name: web
                image: shop
                ports: # (ports)
                  - {name: http, containerPort: 8080}
                lifecycle:
                  postStart:
                    httpGet: {port: metrics, path: /ready, scheme: HTTP}
              - name: sidecar # (sidecar)
                image: envoy
                lifecycle:
                  preStop:
                    httpGet: {port: admin, path: /drain, scheme: HTTP}
            volumes: # (volumes)
              - name: config
                configMap: {name: shop}
      ---
      apiVersion: apps.openshift.io/v1
      kind: DeploymentConfig
      metadata:
        name: rolling
      spec:
        strategy:
          type: Rolling # (rolling)
          recreateParams:
            pre:
              failurePolicy: Ignore
              execNewPod:
                containerName: app
                command: ["/migrate"]
        template:
          spec:
            containers:
              - name: app
                image: app
      ---
      apiVersion: apps.openshift.io/v1
      kind: DeploymentConfig
      metadata:
        name: custom
      spec:
        strategy:
          type: Custom # (custom)
          customParams:
            image: deployer
          recreateParams:
            pre:
              failurePolicy: Ignore
              execNewPod:
                containerName: app
                command: ["/migrate"]
        template:
          spec:
            containers:
              - name: app
                image: app
      """;

  private static final String SAME_IDENTITY = """
      apiVersion: batch/v1
      kind: Job
      metadata:
        name: db-task # (first)
        annotations:
          helm.sh/hook: pre-install
      spec:
        template:
          spec:
            restartPolicy: Never
            containers:
              - name: migrate
                image: busybox
      ---
      apiVersion: batch/v1
      kind: Job
      metadata:
        name: db-task # (second)
        annotations:
          helm.sh/hook: pre-install
          helm.sh/hook-delete-policy: hook-succeeded
      spec:
        template:
          spec:
            restartPolicy: Never
            containers:
              - name: check
                image: busybox
      """;

  private LspSession session;

  @BeforeEach
  void start() {
    session = LspSession.start();
  }

  @AfterEach
  void stop() throws Exception {
    session.close();
  }

  @Test
  void deploymentConfigHooksPointAtTheTemplateListsTheContainerAndTheStrategyType() {
    String uri = "file:///work/openshift/shop.yaml";
    session.open(uri, "yaml", DEPLOYMENT_CONFIGS);
    List<Diagnostic> ds = session.client.awaitDiagnostics(uri, 1).getDiagnostics();

    assertRelated(uri, DiagnosticsTest.only(ds, "HL306"), "(containers)", "the template's containers");
    assertRelated(uri, DiagnosticsTest.only(ds, "HL307"), "(containers)", "the template's containers");
    assertRelated(uri, DiagnosticsTest.only(ds, "HL308"), "(init)", "the init container");
    assertRelated(uri, DiagnosticsTest.only(ds, "HL317"), "(volumes)", "the pod template's volumes");
    assertRelated(uri, DiagnosticsTest.only(ds, "HL311"), "(rolling)", "the strategy type");
    assertRelated(uri, DiagnosticsTest.only(ds, "HL321"), "(custom)", "the strategy type");
    List<Diagnostic> ports = ds.stream().filter(d -> d.getCode().getLeft().equals("HL110")).toList();
    assertEquals(2, ports.size(), ports::toString);
    assertRelated(uri, ports.get(0), "(ports)", "the ports of container web");
    assertRelated(uri, ports.get(1), "(sidecar)", "container sidecar");
  }

  @Test
  void aHookWithTheIdentityOfAnotherPointsAtIt() {
    String uri = "file:///work/chart/templates/jobs.yaml";
    session.open(uri, "yaml", SAME_IDENTITY);
    Diagnostic d = DiagnosticsTest.only(session.client.awaitDiagnostics(uri, 1).getDiagnostics(), "HL210");
    assertEquals(lineOf(SAME_IDENTITY, "(second)"), d.getRange().getStart().getLine(), d::toString);
    assertRelated(uri, SAME_IDENTITY, d, "(first)", "the earlier hook creating Job/db-task");
  }

  private static void assertRelated(String uri, Diagnostic d, String marker, String message) {
    assertRelated(uri, DEPLOYMENT_CONFIGS, d, marker, message);
  }

  private static void assertRelated(String uri, String text, Diagnostic d, String marker, String message) {
    List<DiagnosticRelatedInformation> related = d.getRelatedInformation();
    assertEquals(1, related == null ? 0 : related.size(), d::toString);
    DiagnosticRelatedInformation r = related.get(0);
    assertEquals(uri, r.getLocation().getUri());
    assertEquals(lineOf(text, marker), r.getLocation().getRange().getStart().getLine(), d::toString);
    assertEquals(message, r.getMessage());
  }

  /** The 0-based line whose comment is the marker. */
  private static int lineOf(String text, String marker) {
    List<String> lines = text.lines().toList();
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).endsWith("# " + marker)) {
        return i;
      }
    }
    throw new AssertionError("no line marked " + marker);
  }
}
