package io.hooklens.run.helm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hooklens.TestPaths;
import io.hooklens.app.ChartLint;
import io.hooklens.app.HookTargets;
import io.hooklens.cli.Main;
import io.hooklens.core.engine.Linter;
import io.hooklens.rules.BuiltInRules;
import io.hooklens.run.Images;
import io.hooklens.run.Runner;
import io.hooklens.run.SequencePlan;
import io.hooklens.run.cluster.ControlPlane;
import io.hooklens.run.cluster.KubeAssets;
import io.hooklens.run.node.NodeAgent;
import io.hooklens.run.report.RunReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Real Helm is the reference: the same charts installed (and upgraded) by the real {@code helm} binary and by
 * {@code hooklens run --event} on one real control plane whose pods the node agent runs, each in a namespace of its
 * own, with what each did read from the API server's watches in etcd's revision order. Skipped without the
 * control-plane binaries or without {@code helm} next to them (scripts/kube-assets.sh builds both).
 */
@Tag("slow")
class RealHelmComparisonTest {
  private static final Linter LINTER = new Linter(BuiltInRules.registry());
  private static final String RELEASE = "release";
  private static final Duration TIMEOUT = Duration.ofMinutes(2);
  private static final long HELM_SECONDS = 300;
  private static final String CONTEXT = "hooklens";

  @TempDir
  static Path dir;
  private static Path helm;
  private static ControlPlane plane;
  private static NodeAgent agent;
  private static Path kubeconfig;
  private static HookHistory history;

  /** What one tool did in its namespace: each operation's changes, the objects left, its exit and output. */
  private record Observed(List<List<String>> operations, List<String> objects, List<String> secrets,
      Map<String, Map<String, String>> metadata, List<Boolean> succeeded, List<Long> millis, String output) {}

  // Each tool runs each chart once; the tests compare what was seen from different sides.
  private static final Map<String, Observed> RUNS = new HashMap<>();

  @BeforeAll
  static void start() throws Exception {
    KubeAssets assets;
    try {
      assets = KubeAssets.find(null, System.getenv());
    } catch (KubeAssets.Missing e) {
      Assumptions.abort(e.getMessage() + "; build them with scripts/kube-assets.sh (30 min and more the first time)");
      return;
    }
    helm = assets.binary("helm");
    Assumptions.assumeTrue(Files.isExecutable(helm), "no helm in " + assets.dir() + "; scripts/kube-assets.sh "
        + "builds it with the control plane");
    plane = new ControlPlane(assets, Map.entry(NodeAgent.markerVariable(), NodeAgent.markerPrefix() + "control-plane"),
        Duration.ofMinutes(2));
    plane.start(line -> { });
    agent = NodeAgent.join(plane.client(), Map.of(), assets.has(KubeAssets.SCHEDULER) ? NodeAgent.Peer.SCHEDULED
        : NodeAgent.Peer.UNSCHEDULED);
    kubeconfig = plane.writeKubeconfig(dir.resolve("kubeconfig"));
    history = new HookHistory(plane.client());
  }

  @AfterAll
  static void stop() {
    // Side by side in the test's output, for the docs and for a reader of a failure.
    System.out.println(sideBySide("helm-reference", RUNS.get("helm reference"), RUNS.get("hooklens reference"),
        "install", "upgrade"));
    System.out.println(sideBySide("helm-reference-failing", RUNS.get("helm failing"), RUNS.get("hooklens failing"),
        "install"));
    for (String run : List.of("helm reference", "helm failing", "hooklens reference", "hooklens failing")) {
      System.out.println(RUNS.containsKey(run) ? run + ":\n" + RUNS.get(run).output().lines()
          .filter(l -> !l.contains("[debug]")).collect(java.util.stream.Collectors.joining("\n")) : "");
    }
    if (history != null) {
      history.close();
    }
    if (agent != null) {
      agent.close();
    }
    if (plane != null) {
      plane.close();
    }
  }

  @Test
  void anInstallCreatesAwaitsAndDeletesEachHookInTheOrderRealHelmDoes() throws Exception {
    Observed ours = ourReference();
    Observed helm = helmReference();
    assertEquals(helm.operations().get(0), ours.operations().get(0), helm.output());
    assertEquals(List.of(true, true), ours.succeeded());
  }

  @Test
  void anUpgradeReplacesTheHooksLeftByTheInstallAsBeforeHookCreationDoesInRealHelm() throws Exception {
    Observed ours = ourReference();
    Observed helm = helmReference();
    List<String> upgrade = helm.operations().get(1);
    assertTrue(upgrade.containsAll(List.of("deleted ConfigMap/release-settings", "deleted Job/release-a-backup",
        "deleted Pod/release-twin")), "Helm replaced what the install left: " + upgrade);
    assertEquals(upgrade, ours.operations().get(1), helm.output());
  }

  @Test
  void theHookAndReleaseObjectsLeftAfterInstallAndUpgradeAreThoseRealHelmLeaves() throws Exception {
    Observed ours = ourReference();
    Observed helm = helmReference();
    assertEquals(helm.objects(), ours.objects());
    // Helm keeps each revision of the release in a Secret; hooklens keeps no release record.
    assertEquals(List.of("sh.helm.release.v1.release.v1", "sh.helm.release.v1.release.v2"), helm.secrets());
    assertEquals(List.of(), ours.secrets());
  }

  @Test
  void hookObjectsCarryWhatTheChartSaysAndOnlyHelmMarksTheReleasesOwnObjectsAsItsOwn() throws Exception {
    Map<String, Map<String, String>> helm = new java.util.TreeMap<>(helmReference().metadata());
    Map<String, Map<String, String>> ours = new java.util.TreeMap<>(ourReference().metadata());
    // Helm's ownership marks, which its next upgrade checks before it adopts an object.
    assertEquals(Map.of("label app.kubernetes.io/managed-by", "Helm", "annotation meta.helm.sh/release-name", RELEASE,
        "annotation meta.helm.sh/release-namespace", "helm-helm-reference"), helm.remove("release-config"));
    assertEquals(Map.of(), ours.remove("release-config"));
    assertEquals(helm, ours);
  }

  @Test
  void aFailingHookStopsTheInstallAndDeletesByPolicyAsRealHelmDoes() throws Exception {
    Observed ours = ourFailing();
    Observed helm = helmFailing();
    assertEquals(List.of(false), helm.succeeded(), helm.output());
    assertTrue(helm.output().contains("job release-broken failed: BackoffLimitExceeded"), helm.output());
    assertEquals(List.of(false), ours.succeeded());
    assertTrue(ours.output().contains("job release-broken failed: BackoffLimitExceeded"), ours.output());
    assertEquals(helm.operations(), ours.operations(), helm.output());
    assertEquals(helm.objects(), ours.objects());
    assertFalse(ours.operations().get(0).contains("created ConfigMap/release-config"), "no release step");
  }

  @Test
  void theHooksPlanListsEachEventsHooksInTheOrderRealHelmCreatedThem() throws Exception {
    Path chart = TestPaths.chartCopy("helm-reference", Files.createTempDirectory(dir, "plan"));
    List<String> helmInstall = created(helmReference().operations().get(0));
    List<String> helmUpgrade = created(helmReference().operations().get(1));
    int release = helmInstall.indexOf("ConfigMap/release-config");
    assertNotEquals(-1, release, helmInstall.toString());
    assertEquals(helmInstall.subList(0, release), planned(chart, "pre-install"));
    assertEquals(helmInstall.subList(release + 1, helmInstall.size()), planned(chart, "post-install"));
    List<String> upgrade = new ArrayList<>(planned(chart, "pre-upgrade"));
    upgrade.addAll(planned(chart, "post-upgrade"));
    assertEquals(helmUpgrade, upgrade, "the release's ConfigMap exists already, so the upgrade creates only hooks");
  }

  @Test
  void theHooksPlanOfTheFailingChartMatchesRealHelmUpToTheFailure() throws Exception {
    Path chart = TestPaths.chartCopy("helm-reference-failing", Files.createTempDirectory(dir, "plan"));
    List<String> plan = planned(chart, "pre-install");
    List<String> helmCreated = created(helmFailing().operations().get(0));
    assertEquals(plan.subList(0, helmCreated.size()), helmCreated);
    assertEquals(List.of("Pod/release-never"), plan.subList(helmCreated.size(), plan.size()),
        "only the hook after the failure is left out");
  }

  /**
   * A pod that ended is deleted at once by the API server, so a hook runner creates the next of its name while the
   * node still finishes with the old one: that work must not reach the new pod (Helm's before-hook-creation on a
   * Pod hook showed it, the new pod marked Succeeded and deleted as it started).
   */
  @Test
  void aPodRecreatedUnderItsNameAtOnceIsLeftToRunByTheNodesWorkForTheOldOne() throws Exception {
    String namespace = "same-name";
    KubernetesClient client = plane.client();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
        .create();
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      var pods = client.pods().inNamespace(namespace);
      pods.resource(sleeper(i)).create();
      await(() -> "Succeeded".equals(phase(pods.withName("again").get())));
      pods.withName("again").delete();
      await(() -> pods.withName("again").get() == null);
      expected.addAll(List.of("created Pod/again", "Succeeded Pod/again", "deleting Pod/again", "deleted Pod/again"));
    }
    var pods = client.pods().inNamespace(namespace);
    pods.resource(sleeper(5)).create();
    await(() -> "Succeeded".equals(phase(pods.withName("again").get())));
    expected.addAll(List.of("created Pod/again", "Succeeded Pod/again"));
    assertEquals(expected, history.of(namespace));
  }

  private static io.fabric8.kubernetes.api.model.Pod sleeper(int run) {
    return new io.fabric8.kubernetes.api.model.PodBuilder().withNewMetadata().withName("again").endMetadata()
        .withNewSpec().withRestartPolicy("Never").addNewContainer().withName("run").withImage("debian:12")
        .withCommand("sh", "-c", "sleep 0.5; echo run " + run).endContainer().endSpec().build();
  }

  private static String phase(io.fabric8.kubernetes.api.model.Pod pod) {
    return pod == null || pod.getStatus() == null ? null : pod.getStatus().getPhase();
  }

  private static void await(java.util.function.BooleanSupplier condition) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 60_000;
    while (!condition.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError("not within 60 s; so far: " + history.of("same-name"));
      }
      Thread.sleep(20);
    }
  }

  /** Each operation's changes by Helm and by hooklens, line by line, and the objects each left. */
  private static String sideBySide(String chart, Observed helm, Observed ours, String... operations) {
    if (helm == null || ours == null) {
      return chart + ": not run by both";
    }
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < operations.length; i++) {
      s.append(chart).append(' ').append(operations[i]).append(": helm ").append(helm.millis().get(i))
          .append(" ms, ").append(helm.succeeded().get(i) ? "succeeded" : "failed").append("; hooklens ")
          .append(ours.millis().get(i)).append(" ms, ").append(ours.succeeded().get(i) ? "succeeded" : "failed")
          .append('\n');
      rows(s, helm.operations().get(i), ours.operations().get(i));
    }
    s.append(chart).append(": objects left\n");
    rows(s, helm.objects(), ours.objects());
    return s.toString();
  }

  private static void rows(StringBuilder s, List<String> helm, List<String> ours) {
    for (int row = 0; row < Math.max(helm.size(), ours.size()); row++) {
      String a = row < helm.size() ? helm.get(row) : "";
      String b = row < ours.size() ? ours.get(row) : "";
      s.append("  %-40s %-40s %s%n".formatted(a, b, a.equals(b) ? "same" : "DIFFERENT"));
    }
  }

  /** The {@code Kind/name} of each object created, in order. */
  private static List<String> created(List<String> changes) {
    return changes.stream().filter(c -> c.startsWith("created ")).map(c -> c.substring("created ".length())).toList();
  }

  /** The order {@code hooklens hooks --format json} gives an event's hooks, as {@code Kind/name}. */
  private static List<String> planned(Path chart, String event) throws IOException {
    CommandLine cli = Main.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    assertEquals(0, cli.execute("hooks", "--event", event, "--format", "json", chart.toString()), err.toString());
    JsonNode hooks = new ObjectMapper().readTree(out.toString()).at("/events/0/hooks");
    List<String> order = new ArrayList<>();
    hooks.forEach(h -> order.add(h.get("kind").asText() + "/" + h.get("name").asText()));
    return order;
  }

  private static Observed helmReference() throws Exception {
    return once("helm reference", () -> helm("helm-reference", "install", "upgrade"));
  }

  private static Observed helmFailing() throws Exception {
    return once("helm failing", () -> helm("helm-reference-failing", "install"));
  }

  private static Observed ourReference() throws Exception {
    return once("hooklens reference", () -> hooklens("helm-reference", "install", "upgrade"));
  }

  private static Observed ourFailing() throws Exception {
    return once("hooklens failing", () -> hooklens("helm-reference-failing", "install"));
  }

  private static synchronized Observed once(String key, Callable<Observed> run) throws Exception {
    Observed observed = RUNS.get(key);
    if (observed == null) {
      observed = run.call();
      RUNS.put(key, observed);
    }
    return observed;
  }

  /** Real Helm's operations, one after the other, on a copy of the chart in a namespace of its own. */
  private static Observed helm(String chartName, String... operations) throws Exception {
    Path work = Files.createTempDirectory(dir, "helm");
    Path chart = TestPaths.chartCopy(chartName, work);
    String namespace = "helm-" + chartName;
    KubernetesClient client = plane.client();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
        .create();
    List<List<String>> changes = new ArrayList<>();
    List<Boolean> succeeded = new ArrayList<>();
    StringBuilder output = new StringBuilder();
    List<Long> millis = new ArrayList<>();
    int before = 0;
    for (String operation : operations) {
      long start = System.nanoTime();
      List<String> command = List.of(helm.toString(), operation, RELEASE, chart.toString(), "--namespace", namespace,
          "--kubeconfig", kubeconfig.toString(), "--timeout", TIMEOUT.toSeconds() + "s", "--debug");
      Path log = work.resolve(operation + ".log");
      ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
      // Helm's own files stay in the test's folder.
      for (String home : List.of("HELM_CACHE_HOME", "HELM_CONFIG_HOME", "HELM_DATA_HOME")) {
        builder.environment().put(home, work.resolve(home.toLowerCase()).toString());
      }
      Process process = builder.start();
      if (!process.waitFor(HELM_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
        throw new AssertionError("helm " + operation + " still ran after " + HELM_SECONDS + " s: "
            + Files.readString(log));
      }
      millis.add((System.nanoTime() - start) / 1_000_000);
      output.append("$ helm ").append(operation).append('\n').append(Files.readString(log));
      succeeded.add(process.exitValue() == 0);
      List<String> all = history.of(namespace);
      changes.add(all.subList(before, all.size()));
      before = all.size();
    }
    return new Observed(changes, objects(namespace), secrets(namespace), metadata(namespace), succeeded, millis, output.toString());
  }

  /** {@code hooklens run --event} for each operation, on one runner (so in one namespace) on the same cluster. */
  private static Observed hooklens(String chartName, String... operations) throws Exception {
    Path chart = TestPaths.chartCopy(chartName, Files.createTempDirectory(dir, "hooklens"));
    HookTargets.Target target = new HookTargets(LINTER).named(chart, ChartLint.Values.NONE,
        HookTargets.Reading.RENDERED);
    StringBuilder output = new StringBuilder();
    List<List<String>> changes = new ArrayList<>();
    List<Boolean> succeeded = new ArrayList<>();
    List<Long> millis = new ArrayList<>();
    try (Runner runner = Runner.context(CONTEXT, kubeconfig, 60,
        (s, pod, what) -> output.append(String.format("%.3f %s: %s%n", s, pod, what)))) {
      int before = 0;
      for (String operation : operations) {
        SequencePlan plan = SequencePlan.helm(target.doc(), operation, TIMEOUT, Images.NONE, false, target.origins());
        assertEquals(List.of(), plan.problems());
        long start = System.nanoTime();
        RunReport report = runner.run(plan, List.of());
        millis.add((System.nanoTime() - start) / 1_000_000);
        succeeded.add(report.succeeded());
        if (report.sequences().get(0).error() != null) {
          output.append("error: ").append(report.sequences().get(0).error()).append('\n');
        }
        List<String> all = history.of(runner.namespace());
        changes.add(all.subList(before, all.size()));
        before = all.size();
      }
      return new Observed(changes, objects(runner.namespace()), secrets(runner.namespace()),
          metadata(runner.namespace()), succeeded, millis,
          output.toString());
    }
  }

  /** The ConfigMaps, Pods and Jobs a namespace holds, as {@code Kind/name}, sorted; a Job's pods left out. */
  private static List<String> objects(String namespace) {
    KubernetesClient client = plane.client();
    return Stream.of(client.configMaps().inNamespace(namespace).list().getItems(),
            client.pods().inNamespace(namespace).list().getItems(),
            client.batch().v1().jobs().inNamespace(namespace).list().getItems())
        .flatMap(List::stream).map(o -> (HasMetadata) o)
        .filter(o -> !"kube-root-ca.crt".equals(o.getMetadata().getName()))
        .filter(o -> o.getMetadata().getOwnerReferences() == null || o.getMetadata().getOwnerReferences().stream()
            .noneMatch(r -> "Job".equals(r.getKind())))
        .map(o -> HasMetadata.getKind(o.getClass()) + "/" + o.getMetadata().getName()).sorted().toList();
  }

  /** The labels and annotations of each ConfigMap left, by name, as they were created. */
  private static Map<String, Map<String, String>> metadata(String namespace) {
    Map<String, Map<String, String>> all = new java.util.TreeMap<>();
    for (var map : plane.client().configMaps().inNamespace(namespace).list().getItems()) {
      Map<String, String> marks = new java.util.TreeMap<>();
      if (map.getMetadata().getLabels() != null) {
        map.getMetadata().getLabels().forEach((k, v) -> marks.put("label " + k, v));
      }
      if (map.getMetadata().getAnnotations() != null) {
        map.getMetadata().getAnnotations().forEach((k, v) -> marks.put("annotation " + k, v));
      }
      all.put(map.getMetadata().getName(), marks);
    }
    return all;
  }

  private static List<String> secrets(String namespace) {
    return plane.client().secrets().inNamespace(namespace).list().getItems().stream()
        .map(s -> s.getMetadata().getName()).sorted().toList();
  }
}
