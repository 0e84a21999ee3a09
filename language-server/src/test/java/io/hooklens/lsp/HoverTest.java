package io.hooklens.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.lsp4j.Hover;
import org.eclipse.lsp4j.HoverParams;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Hover over real JSON-RPC: what runs when, budgets, Helm's order and DeploymentConfig policies. */
class HoverTest {
  private static final AtomicInteger FILES = new AtomicInteger();

  private LspSession session;

  @BeforeEach
  void start() {
    session = LspSession.start();
  }

  @AfterEach
  void stop() throws Exception {
    session.close();
  }

  /** The hover's markdown at the marked place of a new file, or null when there is none. */
  private String hover(String extension, String language, String marked) throws Exception {
    Cursor c = Cursor.of(marked);
    String uri = "file:///work/h" + FILES.incrementAndGet() + extension;
    session.open(uri, language, c.text());
    Hover h = session.remote.getTextDocumentService().hover(new HoverParams(new TextDocumentIdentifier(uri),
        c.position())).get(RecordingClient.TIMEOUT_MS, TimeUnit.MILLISECONDS);
    return h == null ? null : h.getContents().getRight().getValue();
  }

  private static String pod(String grace, String preStop) {
    return """
        apiVersion: v1
        kind: Pod
        metadata:
          name: web
        spec:
          %s
          containers:
            - name: app
              image: nginx
              lifecycle:
                pre‸Stop:
                  %s
                postStart:
                  exec: {command: ["sh", "-c", "sleep 12"]}
        """.formatted(grace, preStop);
  }

  @Test
  void preStopShowsWhenItRunsAndItsBudgetAsATimeline() throws Exception {
    String over = hover(".yaml", "yaml", pod("", "exec: {command: [\"sh\", \"-c\", \"sleep 45\"]}"));
    assertTrue(over.startsWith("**preStop** of container `app` · hooklens\n\n"), over);
    assertTrue(over.contains("counts from before preStop"), over);
    assertTrue(over.contains("""
        Budget: the hook needs 45s; grace period 30s (default).

        ```text
             0 s  grace period of 30 s starts; preStop runs
            30 s  grace period over: preStop is overtaken, SIGTERM
            32 s  SIGKILL, if the app still runs (the kubelet's 2-second minimum after SIGTERM)
        ```
        """), over);

    String fits = hover(".yaml", "yaml", pod("terminationGracePeriodSeconds: 60",
        "exec: {command: [\"sh\", \"-c\", \"curl -X POST localhost/drain; sleep 20\"]}"));
    assertTrue(fits.contains("""
        Budget: the hook needs at least 20s (what its sleeps add up to); grace period 60s.

        ```text
             0 s  grace period of 60 s starts; preStop runs
          ≥ 20 s  preStop ends, SIGTERM
            60 s  SIGKILL, if the app still runs
        ```
        """), fits);

    String endless = hover(".yaml", "yaml", pod("terminationGracePeriodSeconds: 10",
        "exec: {command: [\"tail\", \"-f\", \"/dev/null\"]}"));
    assertTrue(endless.contains("the hook never ends on its own; grace period 10s."), endless);
  }

  @Test
  void postStartSaysItRunsWithTheEntrypointAndBlocksRunning() throws Exception {
    String text = pod("", "sleep: {seconds: 5}").replace("pre‸Stop", "preStop").replace("postStart:", "post‸Start:");
    String md = hover(".yaml", "yaml", text);
    assertTrue(md.startsWith("**postStart** of container `app`"), md);
    assertTrue(md.contains("concurrently with the entrypoint"), md);
    assertTrue(md.contains("Estimated duration: the hook needs 12s"), md);
  }

  private static final String HOOKS = """
      apiVersion: v1
      kind: ServiceAccount
      metadata:
        name: migrate
        annotations:
          helm.sh/hook: pre-install
          helm.sh/hook-weight: "-10"
      ---
      apiVersion: batch/v1
      kind: Job
      metadata:
        name: migrate
        annotations:
          helm.sh/ho‸ok: pre-install,pre-upgrade
          helm.sh/hook-weight: "-5"
      spec:
        template:
          spec:
            restartPolicy: Never
            containers: [{name: m, image: m}]
      ---
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: a-seed
        annotations:
          helm.sh/hook: pre-install
          helm.sh/hook-weight: "-5"
          helm.sh/hook-delete-policy: hook-succeeded
      """;

  @Test
  void helmHookShowsItsEventsItsPlaceInHelmsOrderAndItsDeletePolicies() throws Exception {
    String md = hover(".yaml", "yaml", HOOKS);
    assertTrue(md.contains("""
        - `pre-install`: on install, after the templates render, before any resource is created
        - `pre-upgrade`: on upgrade, after the templates render, before any resource is updated

        pre-install in this file, in Helm's order (weight, then name):

        1. ServiceAccount/migrate, weight -10
        2. ConfigMap/a-seed, weight -5
        3. **Job/migrate, weight -5** ← this hook

        pre-upgrade in this file, in Helm's order (weight, then name):

        1. **Job/migrate, weight -5** ← this hook

        Delete policies: `before-hook-creation` (default): the previous hook object is deleted before this one is\
         created (Helm's default).

        Helm waits for this Job to finish before the next hook."""), md);

    String seed = hover(".yaml", "yaml", HOOKS.replace("helm.sh/ho‸ok", "helm.sh/hook")
        .replace("helm.sh/hook-delete-policy", "helm.sh/hook-delete-‸policy"));
    assertTrue(seed.startsWith("**helm.sh/hook-delete-policy**"), seed);
    assertTrue(seed.contains("`hook-succeeded`: the object is deleted once the hook succeeded."), seed);
    assertTrue(seed.contains("Helm does not wait for a ConfigMap: it counts as done once created."), seed);
  }

  @Test
  void deploymentConfigPhasesAndPolicies() throws Exception {
    String dc = """
        apiVersion: apps.openshift.io/v1
        kind: DeploymentConfig
        metadata:
          name: api
        spec:
          strategy:
            type: Recreate
            recreateParams:
              mid:
                failurePolicy: Retry
                execNewPod: {containerName: api, command: ["./check"]}
              post:
                failurePolicy: Abort
                execNewPod: {containerName: api, command: ["./notify"]}
          template:
            spec:
              containers: [{name: api, image: api}]
        """;
    String mid = hover(".yaml", "yaml", dc.replace("  mid:", "  m‸id:"));
    assertTrue(mid.contains("after the old pods are scaled down and before the new ones are created"), mid);
    assertTrue(mid.contains("`failurePolicy: Retry`: the hook pod is run again until it succeeds"), mid);
    String post = hover(".yaml", "yaml", dc.replace("failurePolicy: Abort", "failurePolicy: Ab‸ort"));
    assertTrue(post.contains("`Abort`: a failing hook fails the rollout"), post);
    assertTrue(post.endsWith("Recommended for a `post` hook: `Ignore`."), post);
  }

  @Test
  void jsonManifestsAndChartTemplates() throws Exception {
    String json = hover(".json", "json", """
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
         "spec": {"terminationGracePeriodSeconds": 20, "containers": [{"name": "app", "image": "nginx",
           "lifecycle": {"pre‸Stop": {"sleep": {"seconds": 5}}}}]}}
        """);
    assertTrue(json.contains("Budget: the hook needs 5s; grace period 20s."), json);

    String template = """
        apiVersion: batch/v1
        kind: Job
        metadata:
          name: {{ include "app.fullname" . }}-migrate
          annotations:
            "helm.sh/h‸ook": pre-install
            "helm.sh/hook-weight": "1"
        spec:
          template:
            spec:
              restartPolicy: Never
              containers: [{name: m, image: "{{ .Values.image }}"}]
        ---
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: {{ include "app.fullname" . }}-config
          annotations:
            "helm.sh/hook": pre-install
            "helm.sh/hook-weight": "1"
        """;
    String md = hover(".yaml", "helm", template);
    assertTrue(md.contains("""
        1. ConfigMap/{{ include "app.fullname" . }}-config, weight 1
        2. **Job/{{ include "app.fullname" . }}-migrate, weight 1** ← this hook"""), md);
    String unsure = hover(".yaml", "helm", template.replace("{{ include \"app.fullname\" . }}-config",
        "{{ .Values.configName }}"));
    assertTrue(unsure.contains("pre-install in this file, in Helm's order (weight, then name); template values may"
        + " change it once rendered:"), unsure);
  }

  @Test
  void otherKeysHaveNoHover() throws Exception {
    assertNull(hover(".yaml", "yaml", pod("", "sleep: {seconds: 5}").replace("pre‸Stop", "preStop")
        .replace("image: nginx", "ima‸ge: nginx")));
    assertNull(hover(".yaml", "yaml", "services:\n  pre‸Stop:\n    image: x\n"));
    assertEquals(0, session.client.logs().stream().filter(m -> m.getMessage().contains("hover failed")).count());
  }
}
