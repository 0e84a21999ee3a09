package io.hooklens.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.eclipse.lsp4j.DocumentSymbol;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;
import org.junit.jupiter.api.Test;

/** The outline of a file's hooks, over real JSON-RPC. */
class DocumentSymbolsTest {
  private static final String MANIFESTS = """
      apiVersion: apps/v1
      kind: Deployment
      metadata:
        name: web
      spec:
        template:
          spec:
            initContainers:
              - name: setup
                image: busybox
            containers:
              - name: web
                image: nginx
                lifecycle:
                  preStop:
                    exec:
                      command: ["sh", "-c", "sleep 5; nginx -s quit"]
                  postStart:
                    httpGet: {path: /warmup, port: 8080}
              - name: 😀-shipper
                image: fluent-bit
                lifecycle:
                  preStop:
                    sleep: {seconds: 5}
      ---
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: no-hooks
      ---
      apiVersion: batch/v1
      kind: Job
      metadata:
        name: db-migrate
        annotations:
          "helm.sh/hook": pre-install,Pre-Upgrade
          "helm.sh/hook-weight": "-5"
      spec:
        template:
          spec:
            restartPolicy: Never
            containers: [{name: migrate, image: migrate}]
      ---
      apiVersion: apps.openshift.io/v1
      kind: DeploymentConfig
      metadata:
        name: api
      spec:
        strategy:
          type: Recreate
          recreateParams:
            pre:
              failurePolicy: Abort
              execNewPod: {containerName: api, command: ["./migrate"]}
            post:
              failurePolicy: Ignore
              tagImages: [{containerName: api, to: {kind: ImageStreamTag, name: "api:latest"}}]
        template:
          spec:
            containers: [{name: api, image: api}]
      ---
      apiVersion: v1
      kind: List
      items:
        - apiVersion: v1
          kind: Pod
          metadata: {name: item}
          spec:
            containers:
              - name: app
                image: nginx
                lifecycle: {preStop: {tcpSocket: {port: 80}}}
      """;

  private static void render(List<DocumentSymbol> symbols, String indent, StringBuilder out) {
    for (DocumentSymbol s : symbols) {
      out.append(indent).append(s.getName()).append(" (").append(s.getKind()).append(") ").append(s.getDetail())
          .append(" @").append(s.getSelectionRange().getStart().getLine() + 1).append('\n');
      assertTrue(contains(s.getRange(), s.getSelectionRange()), s.getName() + ": selection inside the range");
      render(s.getChildren(), indent + "  ", out);
    }
  }

  private static boolean contains(Range outer, Range inner) {
    return compare(outer.getStart(), inner.getStart()) <= 0 && compare(inner.getEnd(), outer.getEnd()) <= 0;
  }

  private static int compare(Position a, Position b) {
    return a.getLine() != b.getLine() ? Integer.compare(a.getLine(), b.getLine())
        : Integer.compare(a.getCharacter(), b.getCharacter());
  }

  @Test
  void theOutlineListsResourcesWithHooksTheirContainersHandlersHelmEventsAndDeploymentConfigPhases()
      throws Exception {
    String uri = "file:///work/all.yaml";
    try (LspSession session = LspSession.start()) {
      session.open(uri, "yaml", MANIFESTS);
      StringBuilder outline = new StringBuilder();
      render(session.symbols(uri), "", outline);
      assertEquals("""
          Deployment/web (Class) apps/v1 @4
            web (Object) container @12
              preStop (Event) exec: sh -c sleep 5; nginx -s quit @15
              postStart (Event) httpGet: /warmup port 8080 @18
            😀-shipper (Object) container @20
              preStop (Event) sleep: 5s @23
          Job/db-migrate (Class) batch/v1 @34
            pre-install (Event) Helm hook, weight -5 @36
            pre-upgrade (Event) Helm hook, weight -5 @36
          DeploymentConfig/api (Class) apps.openshift.io/v1 @47
            pre (Event) recreateParams.pre · failurePolicy Abort · execNewPod @52
            post (Event) recreateParams.post · failurePolicy Ignore · tagImages @55
          List (Namespace) v1 @63
            Pod/item (Class) v1 @67
              app (Object) container @70
                preStop (Event) tcpSocket: port 80 @72
          """, outline.toString());
    }
  }

  @Test
  void columnsOfSymbolsAreUtf16Units() throws Exception {
    String uri = "file:///work/emoji.yaml";
    String text = "apiVersion: v1\nkind: Pod\nmetadata: {name: 😀}\nspec:\n  containers:\n"
        + "    - {name: 😀😀, image: x, lifecycle: {preStop: {sleep: {seconds: 1}}}}\n";
    try (LspSession session = LspSession.start()) {
      session.open(uri, "yaml", text);
      DocumentSymbol container = session.symbols(uri).get(0).getChildren().get(0);
      String line = text.split("\n")[5];
      assertEquals(line.indexOf("😀😀"), container.getSelectionRange().getStart().getCharacter());
      assertEquals(line.indexOf("preStop"), container.getChildren().get(0).getSelectionRange().getStart()
          .getCharacter());
    }
  }

  @Test
  void aFileWithoutHooksHasAnEmptyOutline() throws Exception {
    String uri = "file:///work/docker-compose.yml";
    try (LspSession session = LspSession.start()) {
      session.open(uri, "yaml", "services:\n  web: {image: nginx}\n");
      assertEquals(List.of(), session.symbols(uri));
      assertEquals(List.of(), session.symbols("file:///work/not-open.yaml"));
    }
  }
}
