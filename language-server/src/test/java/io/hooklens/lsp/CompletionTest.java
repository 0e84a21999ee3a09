package io.hooklens.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.rules.BuiltInRules;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.lsp4j.ClientCapabilities;
import org.eclipse.lsp4j.CompletionCapabilities;
import org.eclipse.lsp4j.CompletionItem;
import org.eclipse.lsp4j.CompletionItemCapabilities;
import org.eclipse.lsp4j.CompletionList;
import org.eclipse.lsp4j.CompletionParams;
import org.eclipse.lsp4j.InsertTextFormat;
import org.eclipse.lsp4j.InsertTextMode;
import org.eclipse.lsp4j.CompletionItemInsertTextModeSupportCapabilities;
import org.eclipse.lsp4j.MessageType;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.TextDocumentClientCapabilities;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.eclipse.lsp4j.TextEdit;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Completion over real JSON-RPC, in YAML manifests, JSON manifests and chart templates. */
class CompletionTest {
  private static final AtomicInteger FILES = new AtomicInteger();

  private LspSession plain;

  @BeforeEach
  void start() {
    plain = LspSession.start();
  }

  @AfterEach
  void stop() throws Exception {
    plain.close();
  }

  /** A client that takes snippets and text inserted as it is. */
  static LspSession snippetClient(String settings) {
    return LspSession.start(BuiltInRules.registry(), LspSession.json(settings), CompletionTest::snippets, c -> { });
  }

  static void snippets(ClientCapabilities caps) {
    CompletionItemCapabilities item = new CompletionItemCapabilities(true);
    item.setInsertTextModeSupport(new CompletionItemInsertTextModeSupportCapabilities(List.of(InsertTextMode.AsIs)));
    TextDocumentClientCapabilities td = caps.getTextDocument() == null ? new TextDocumentClientCapabilities()
        : caps.getTextDocument();
    td.setCompletion(new CompletionCapabilities(item));
    caps.setTextDocument(td);
  }

  static List<CompletionItem> complete(LspSession session, String uri, Position at) throws Exception {
    Either<List<CompletionItem>, CompletionList> result = session.remote.getTextDocumentService()
        .completion(new CompletionParams(new TextDocumentIdentifier(uri), at))
        .get(RecordingClient.TIMEOUT_MS, TimeUnit.MILLISECONDS);
    return result.isLeft() ? result.getLeft() : result.getRight().getItems();
  }

  /** Opens the text (cursor marked with ‸) as a new file with this extension and asks for completions there. */
  static List<CompletionItem> complete(LspSession session, String extension, String language, Cursor cursor)
      throws Exception {
    String uri = "file:///work/c" + FILES.incrementAndGet() + extension;
    session.open(uri, language, cursor.text());
    return complete(session, uri, cursor.position());
  }

  private List<CompletionItem> yaml(String marked) throws Exception {
    return complete(plain, ".yaml", "yaml", Cursor.of(marked));
  }

  private static List<String> labels(List<CompletionItem> items) {
    return items.stream().map(CompletionItem::getLabel).toList();
  }

  private static CompletionItem item(List<CompletionItem> items, String label) {
    return items.stream().filter(i -> i.getLabel().equals(label)).findFirst()
        .orElseThrow(() -> new AssertionError("no item " + label + " in " + labels(items)));
  }

  private static String accept(Cursor cursor, List<CompletionItem> items, String label) {
    TextEdit edit = item(items, label).getTextEdit().getLeft();
    return cursor.apply(edit);
  }

  private static final String JOB = """
      apiVersion: batch/v1
      kind: Job
      metadata:
        name: migrate
        annotations:
          helm.sh/hook: pre-install
          %s
      spec:
        template:
          spec:
            restartPolicy: Never
            containers: [{name: migrate, image: migrate}]
      """;

  @Test
  void annotationKeysAreTheHelmKeysNotYetWrittenAndOutputLogPolicyOnlyOnJobsAndPods() throws Exception {
    List<CompletionItem> job = yaml(JOB.formatted("helm.sh/ho‸"));
    assertEquals(List.of("helm.sh/hook-weight", "helm.sh/hook-delete-policy", "helm.sh/hook-output-log-policy",
        "helm.sh/resource-policy"), labels(job));
    Cursor c = Cursor.of(JOB.formatted("helm.sh/ho‸"));
    assertTrue(accept(c, job, "helm.sh/hook-weight").contains("\n    helm.sh/hook-weight: \"0\"\n"),
        "a plain client gets the key and a quoted weight");

    String deployment = JOB.replace("batch/v1", "apps/v1").replace("kind: Job", "kind: Deployment");
    assertFalse(labels(yaml(deployment.formatted("‸"))).contains("helm.sh/hook-output-log-policy"));

    String notAHook = JOB.replace("    helm.sh/hook: pre-install\n", "");
    assertEquals(List.of("helm.sh/hook", "helm.sh/resource-policy"), labels(yaml(notAHook.formatted("‸"))));
  }

  @Test
  void eventsAfterACommaLeaveOutTheListedOnesAndTheDeprecatedAlias() throws Exception {
    String marked = JOB.replace("helm.sh/hook: pre-install", "helm.sh/hook: pre-install, ‸").formatted("");
    Cursor c = Cursor.of(marked);
    List<CompletionItem> items = complete(plain, ".yaml", "yaml", c);
    assertEquals(List.of("post-install", "pre-delete", "post-delete", "pre-upgrade", "post-upgrade",
        "pre-rollback", "post-rollback", "test"), labels(items));
    assertTrue(accept(c, items, "pre-upgrade").contains("helm.sh/hook: pre-install, pre-upgrade\n"));
    assertTrue(item(items, "pre-upgrade").getDetail().contains("before any resource is updated"));

    Cursor quoted = Cursor.of(JOB.replace("helm.sh/hook: pre-install", "\"helm.sh/hook\": \"pre-upgrade,pre-‸\"")
        .formatted(""));
    List<CompletionItem> inQuotes = complete(plain, ".yaml", "yaml", quoted);
    assertFalse(labels(inQuotes).contains("pre-upgrade"));
    assertTrue(accept(quoted, inQuotes, "pre-install").contains("\"helm.sh/hook\": \"pre-upgrade,pre-install\"\n"));
  }

  @Test
  void deletePoliciesWeightsAndResourcePolicyValues() throws Exception {
    Cursor policy = Cursor.of(JOB.formatted("helm.sh/hook-delete-policy: hook-succeeded,‸"));
    List<CompletionItem> policies = complete(plain, ".yaml", "yaml", policy);
    assertEquals(List.of("before-hook-creation", "hook-failed"), labels(policies));

    Cursor weight = Cursor.of(JOB.formatted("helm.sh/hook-weight: -5‸"));
    List<CompletionItem> weights = complete(plain, ".yaml", "yaml", weight);
    assertEquals(List.of("-5"), labels(weights));
    assertTrue(accept(weight, weights, "-5").contains("helm.sh/hook-weight: \"-5\"\n"), "the weight gets quoted");

    Cursor keep = Cursor.of(JOB.formatted("helm.sh/resource-policy: ‸"));
    assertEquals(List.of("keep"), labels(complete(plain, ".yaml", "yaml", keep)));
  }

  @Test
  void helmAnnotationsAreNotOfferedOnListItemsWhichHelmNeverReads() throws Exception {
    String list = """
        apiVersion: v1
        kind: List
        items:
          - apiVersion: batch/v1
            kind: Job
            metadata:
              name: a
              annotations:
                ‸
        """;
    assertEquals(List.of(), yaml(list));
  }

  private static final String DEPLOYMENT = """
      apiVersion: apps/v1
      kind: Deployment
      metadata:
        name: web
      spec:
        template:
          spec:
            terminationGracePeriodSeconds: 3
            initContainers:
              - name: setup
                image: busybox
                lifecycle:
                  ‹setup›
            containers:
              - name: web
                image: nginx
                ports:
                  - name: http
                    containerPort: 8080
                  - containerPort: 9090
                lifecycle:
                  ‹web›
              - name: admin
                image: admin
                ports: [{name: admin, containerPort: 7000}]
      """;

  private static String deployment(String web, String setup) {
    return DEPLOYMENT.replace("‹web›", web).replace("‹setup›", setup);
  }

  @Test
  void underLifecycleHandlerSkeletonsFitTheGracePeriodAndAreNotOfferedOnPlainInitContainers() throws Exception {
    Cursor c = Cursor.of(deployment("‸", ""));
    List<CompletionItem> items = complete(plain, ".yaml", "yaml", c);
    assertEquals(List.of("preStop: sleep 3 s (hooklens)", "preStop: exec command (hooklens)",
        "preStop: httpGet port http (hooklens)", "postStart: exec command (hooklens)",
        "postStart: httpGet port http (hooklens)"), labels(items));
    CompletionItem sleep = item(items, "preStop: sleep 3 s (hooklens)");
    assertEquals(InsertTextFormat.PlainText, sleep.getInsertTextFormat());
    assertEquals("preStop", sleep.getFilterText());
    String accepted = accept(c, items, "preStop: sleep 3 s (hooklens)");
    assertTrue(accepted.contains("          lifecycle:\n            preStop:\n              sleep:\n"
        + "                seconds: 3\n        - name: admin"), accepted);

    assertEquals(List.of(), complete(plain, ".yaml", "yaml", Cursor.of(deployment("", "‸"))),
        "lifecycle on an init container that is not a sidecar is rejected (HL118)");
    String sidecar = deployment("", "‸").replace("image: busybox", "image: busybox\n          restartPolicy: Always");
    assertFalse(complete(plain, ".yaml", "yaml", Cursor.of(sidecar)).isEmpty());

    String withPreStop = deployment("preStop: {sleep: {seconds: 1}}\n            ‸", "");
    assertTrue(labels(complete(plain, ".yaml", "yaml", Cursor.of(withPreStop))).stream()
        .allMatch(l -> l.startsWith("postStart")));
  }

  @Test
  void underPreStopTheHandlerBodiesUntilAnActionIsWritten() throws Exception {
    Cursor c = Cursor.of(deployment("preStop:\n              ‸", ""));
    List<CompletionItem> items = complete(plain, ".yaml", "yaml", c);
    assertEquals(List.of("sleep 3 s (hooklens)", "exec command (hooklens)", "httpGet port http (hooklens)"),
        labels(items));
    assertTrue(accept(c, items, "httpGet port http (hooklens)").contains("            preStop:\n"
        + "              httpGet:\n                path: /shutdown\n                port: http\n"),
        "the body is indented under the key");
    assertEquals(List.of(), complete(plain, ".yaml", "yaml",
        Cursor.of(deployment("preStop:\n              exec: {command: [a]}\n              ‸", ""))));
  }

  @Test
  void snippetClientsGetSnippetsInsertedAsTheyAre() throws Exception {
    try (LspSession session = snippetClient("{\"hooklens\": {\"debounceMs\": 0}}")) {
      List<CompletionItem> items = complete(session, ".yaml", "yaml", Cursor.of(deployment("‸", "")));
      CompletionItem sleep = item(items, "preStop: sleep 3 s (hooklens)");
      assertEquals(InsertTextFormat.Snippet, sleep.getInsertTextFormat());
      assertEquals(InsertTextMode.AsIs, sleep.getInsertTextMode());
      assertEquals("preStop:\n              sleep:\n                seconds: ${1:3}",
          sleep.getTextEdit().getLeft().getNewText());
      List<CompletionItem> keys = complete(session, ".yaml", "yaml", Cursor.of(JOB.formatted("‸")));
      assertEquals("helm.sh/hook-delete-policy: ${1|before-hook-creation,hook-succeeded,hook-failed|}",
          item(keys, "helm.sh/hook-delete-policy").getTextEdit().getLeft().getNewText());
    }
  }

  @Test
  void theSleepActionIsOfferedOnlyFromKubernetes130() throws Exception {
    try (LspSession old = LspSession.start(LspSession.json(
        "{\"hooklens\": {\"debounceMs\": 0, \"targets\": {\"kubernetes\": \"1.29\"}}}"))) {
      List<CompletionItem> items = complete(old, ".yaml", "yaml", Cursor.of(deployment("‸", "")));
      assertTrue(labels(items).stream().noneMatch(l -> l.contains("sleep")), labels(items).toString());
    }
  }

  @Test
  void httpGetPortsAreTheSameContainersNamesAndNumbers() throws Exception {
    Cursor c = Cursor.of(deployment("postStart:\n              httpGet:\n                path: /\n"
        + "                port: ‸", ""));
    List<CompletionItem> items = complete(plain, ".yaml", "yaml", c);
    assertEquals(List.of("http", "8080", "9090"), labels(items), "admin belongs to another container");
    assertTrue(accept(c, items, "http").contains("port: http\n"));
    Cursor quoted = Cursor.of(deployment("postStart:\n              httpGet:\n                port: \"‸\"", ""));
    assertEquals(List.of("http"), labels(complete(plain, ".yaml", "yaml", quoted)),
        "a quoted number would be a string, not a port");
  }

  private static final String DC = """
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
              execNewPod:
                containerName: ‹pre-container›
                command: ["./migrate"]
                volumes:
                  - config
                  ‹volume›
            post:
              ‹post›
        template:
          spec:
            containers:
              - name: api
                image: api
              - name: worker
                image: worker
            volumes:
              - name: config
                configMap: {name: api}
              - name: data
                emptyDir: {}
              - name: scratch
                emptyDir: {}
      """;

  private static String dc(String preContainer, String volume, String post) {
    return DC.replace("‹pre-container›", preContainer).replace("‹volume›", volume).replace("‹post›", post);
  }

  @Test
  void deploymentConfigHooksGetPoliciesContainersAndVolumesOfTheirTemplate() throws Exception {
    List<CompletionItem> policies = yaml(dc("api", "", "failurePolicy: ‸"));
    assertEquals(List.of("Ignore", "Abort", "Retry"), labels(policies), "post: the safe choice first (HL314)");
    assertTrue(item(policies, "Ignore").getPreselect());
    assertTrue(item(policies, "Ignore").getDocumentation().getRight().getValue().contains("Recommended for a `post`"));

    assertEquals(List.of("api", "worker"), labels(yaml(dc("‸", "", "failurePolicy: Ignore"))));
    assertEquals(List.of("data", "scratch"), labels(yaml(dc("api", "- ‸", "failurePolicy: Ignore"))),
        "config is listed already");
    assertEquals(List.of("api", "worker"), labels(yaml(dc("api", "",
        "failurePolicy: Ignore\n        tagImages:\n          - containerName: ‸"))));

    Cursor empty = Cursor.of(dc("api", "", "‸"));
    List<CompletionItem> skeletons = complete(plain, ".yaml", "yaml", empty);
    assertEquals(List.of("execNewPod hook (hooklens)", "tagImages hook (hooklens)"), labels(skeletons));
    assertTrue(accept(empty, skeletons, "execNewPod hook (hooklens)").contains("      post:\n"
        + "        failurePolicy: Ignore\n        execNewPod:\n          containerName: api\n"
        + "          command: [\"/bin/sh\", \"-c\", \"\"]\n"));
  }

  @Test
  void rollingStrategiesHaveNoMidHookToComplete() throws Exception {
    String rolling = dc("api", "", "").replace("recreateParams", "rollingParams").replace("type: Recreate",
        "type: Rolling").replace("    post:\n", "    mid:\n      failurePolicy: ‸\n    post:\n");
    assertEquals(List.of(), yaml(rolling));
  }

  @Test
  void jsonManifestsGetQuotedKeysAndValues() throws Exception {
    Cursor key = Cursor.of("""
        {
          "apiVersion": "batch/v1",
          "kind": "Job",
          "metadata": {
            "name": "migrate",
            "annotations": {
              "helm.sh/hook": "pre-install",
              "helm.sh/ho‸"
            }
          }
        }
        """);
    List<CompletionItem> keys = complete(plain, ".json", "json", key);
    assertEquals(List.of("helm.sh/hook-weight", "helm.sh/hook-delete-policy", "helm.sh/hook-output-log-policy",
        "helm.sh/resource-policy"), labels(keys));
    assertEquals("\"helm.sh/hook-weight", item(keys, "helm.sh/hook-weight").getFilterText());
    assertTrue(accept(key, keys, "helm.sh/hook-weight").contains("\n      \"helm.sh/hook-weight\": \"0\"\n"));

    Cursor value = Cursor.of("""
        {"apiVersion": "batch/v1", "kind": "Job",
         "metadata": {"name": "m", "annotations": {"helm.sh/hook": "pre-install,‸"}}}
        """);
    List<CompletionItem> events = complete(plain, ".json", "json", value);
    assertFalse(labels(events).contains("pre-install"));
    assertTrue(accept(value, events, "post-install").contains("\"helm.sh/hook\": \"pre-install,post-install\"}"));

    Cursor lifecycle = Cursor.of("""
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
         "spec": {"containers": [{"name": "app", "image": "nginx",
           "ports": [{"name": "web", "containerPort": 80}],
           "lifecycle": {‸}}]}}
        """);
    List<CompletionItem> skeletons = complete(plain, ".json", "json", lifecycle);
    assertTrue(accept(lifecycle, skeletons, "preStop: httpGet port web (hooklens)")
        .contains("\"lifecycle\": {\"preStop\": {\"httpGet\": {\"path\": \"/shutdown\", \"port\": \"web\"}}}"));

    Cursor port = Cursor.of("""
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
         "spec": {"containers": [{"name": "app", "image": "nginx",
           "ports": [{"name": "web", "containerPort": 80}],
           "lifecycle": {"preStop": {"httpGet": {"port": ‸}}}}]}}
        """);
    List<CompletionItem> ports = complete(plain, ".json", "json", port);
    assertEquals(List.of("web", "80"), labels(ports));
    assertTrue(accept(port, ports, "web").contains("\"port\": \"web\"}"));
    assertTrue(accept(port, ports, "80").contains("\"port\": 80}"));
  }

  @Test
  void chartTemplatesCompleteAroundTemplateActions() throws Exception {
    Cursor c = Cursor.of("""
        {{- if .Values.migrate.enabled }}
        apiVersion: batch/v1
        kind: Job
        metadata:
          name: {{ include "app.fullname" . }}-migrate
          labels:
            {{- include "app.labels" . | nindent 4 }}
          annotations:
            {{- with .Values.extraAnnotations }}
            {{- toYaml . | nindent 4 }}
            {{- end }}
            "helm.sh/hook": pre-install,‸
            "helm.sh/hook-weight": {{ .Values.weight | quote }}
        spec:
          template:
            spec:
              restartPolicy: Never
              containers:
                - name: {{ .Chart.Name }}
                  image: "{{ .Values.image }}"
                  ports:
                    - name: http
                      containerPort: {{ .Values.port }}
                  lifecycle:
                    postStart:
                      httpGet:
                        port: h
        {{- end }}
        """);
    List<CompletionItem> events = complete(plain, ".yaml", "helm", c);
    assertTrue(labels(events).contains("post-install") && !labels(events).contains("pre-install"), labels(events)
        .toString());
    String port = c.text().replace("port: h\n", "port: h‸\n");
    assertEquals(List.of("http"), labels(complete(plain, ".yaml", "helm", Cursor.of(port))),
        "a templated containerPort is not offered");
    String keys = c.text().replace("    \"helm.sh/hook-weight\"", "    helm‸\n    \"helm.sh/hook-weight\"");
    assertEquals(List.of("helm.sh/hook-delete-policy", "helm.sh/hook-output-log-policy", "helm.sh/resource-policy"),
        labels(complete(plain, ".yaml", "helm", Cursor.of(keys))));
  }

  @Test
  void listItemsAndOpenShiftTemplateObjectsComplete() throws Exception {
    String list = """
        apiVersion: v1
        kind: List
        items:
          - apiVersion: v1
            kind: Pod
            metadata: {name: a}
            spec:
              containers:
                - name: app
                  image: nginx
                  ports: [{name: web, containerPort: 80}]
                  lifecycle:
                    postStart:
                      httpGet:
                        port: ‸
        """;
    assertEquals(List.of("web", "80"), labels(yaml(list)));
    String template = """
        apiVersion: template.openshift.io/v1
        kind: Template
        metadata: {name: t}
        objects:
          - apiVersion: apps.openshift.io/v1
            kind: DeploymentConfig
            metadata: {name: "${NAME}"}
            spec:
              strategy:
                type: Rolling
                rollingParams:
                  pre:
                    failurePolicy: Abort
                    execNewPod:
                      containerName: ‸
              template:
                spec:
                  containers: [{name: api, image: api}]
        """;
    assertEquals(List.of("api"), labels(yaml(template)));
  }

  @Test
  void incompleteTextNeverMakesARequestFail() throws Exception {
    String[] texts = {
      deployment("preStop:\n              httpGet: {port: \"ht", "").replace("ports:", "ports: [ {"),
      JOB.formatted("\"helm.sh/hook-weight: '").replace("kind: Job", "kind: [Job"),
      "{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"annotations\": {\"helm.sh/hook\": \"pre-",
      "apiVersion: v1\nkind: Pod\nmetadata:\n  annotations: {{ \n    helm.sh/hook: \n---\n- - - :\n  \t x: y\n",
      dc("{{ .Values.c }}", "- \"", "failurePolicy: '"),
    };
    int requests = 0;
    for (int t = 0; t < texts.length; t++) {
      String text = texts[t];
      String uri = "file:///work/broken" + t + (t == 2 ? ".json" : ".yaml");
      plain.open(uri, t == 2 ? "json" : "yaml", text);
      String[] lines = text.split("\n", -1);
      for (int line = 0; line < lines.length; line++) {
        for (int col = 0; col <= lines[line].length(); col++) {
          complete(plain, uri, new Position(line, col));
          requests++;
        }
      }
      complete(plain, uri, new Position(lines.length + 3, 100));
    }
    assertTrue(requests > 500);
    assertTrue(plain.client.logs().stream().noneMatch(m -> m.getType() == MessageType.Error), plain.client.logs()
        .toString());
  }
}
