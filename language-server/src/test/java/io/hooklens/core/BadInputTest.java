package io.hooklens.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.core.engine.Config;
import io.hooklens.core.engine.Finding;
import io.hooklens.core.engine.LintResult;
import io.hooklens.core.engine.Linter;
import io.hooklens.rules.BuiltInRules;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Hostile and broken input gives findings with positions, never an exception, a hang or an OOM. */
class BadInputTest {
  private static final Linter LINTER = new Linter(BuiltInRules.registry());

  private static LintResult lint(String name, String text) {
    // A guard against hangs, not a performance target (docs/performance.md has the benchmark): wide enough for
    // the 20 MB case on two cores that are busy with other work.
    return assertTimeoutPreemptively(Duration.ofMinutes(10), () -> LINTER.lint(name, text, Config.DEFAULT));
  }

  private static List<String> ids(LintResult r) {
    return r.findings().stream().map(Finding::ruleId).toList();
  }

  @Test
  void aliasBombIsRefused() {
    StringBuilder sb = new StringBuilder("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
    for (char c = 'b'; c <= 'j'; c++) {
      char p = (char) (c - 1);
      sb.append(c).append(": &").append(c).append(" [");
      for (int i = 0; i < 9; i++) {
        sb.append(i == 0 ? "" : ",").append('*').append(p);
      }
      sb.append("]\n");
    }
    sb.append("---\napiVersion: v1\nkind: Pod\nmetadata: {name: after}\nspec:\n  containers:\n"
        + "    - name: a\n      lifecycle: {preStop: {}}\n");
    LintResult r = lint("bomb.yaml", sb.toString());
    assertTrue(ids(r).contains("HL002"), ids(r).toString());
    Finding f = r.findings().stream().filter(x -> x.ruleId().equals("HL002")).findFirst().orElseThrow();
    assertTrue(f.message().contains("alias"), f.message());
    assertTrue(ids(r).contains("HL101"), "the next document is still checked: " + ids(r));
    assertTrue(r.failures().isEmpty());
  }

  @Test
  void aLargeListWithoutAliasesIsReadWhole() {
    // About 70 nodes per item, eight levels deep: 700,000 nodes, which the alias-bomb limit once counted once per
    // ancestor, refusing the file with no other finding.
    String item = """
        {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web-%d", "labels": {"app": "web"}},
         "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}},
          "template": {"metadata": {"labels": {"app": "web", "tier": "front"}},
           "spec": {"terminationGracePeriodSeconds": 60, "containers": [
            {"name": "web", "image": "nginx:1.27", "ports": [{"name": "http", "containerPort": 8080}],
             "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}],
             "lifecycle": {"preStop": {"exec": {"command": ["/bin/sh", "-c", "sleep 5; nginx -s quit"]}},
                           "postStart": {}}},
            {"name": "log", "image": "fluent/fluent-bit:3.1",
             "resources": {"limits": {"cpu": "100m", "memory": "64Mi"}}}]}}}}""";
    StringBuilder sb = new StringBuilder("{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [\n");
    int items = 10_000;
    for (int i = 0; i < items; i++) {
      sb.append(i == 0 ? "" : ",\n").append(item.formatted(i));
    }
    LintResult r = lint("list.json", sb.append("]}\n").toString());
    assertTrue(r.failures().isEmpty(), r.failures().toString());
    assertEquals(List.of("HL101"), ids(r).stream().distinct().toList());
    assertEquals(items, r.findings().size());
  }

  @Test
  void longLinesAreReadInTimeProportionalToTheirLength() {
    // Measured on the thread that lints, which the timeout runs apart.
    long[] nanos = assertTimeoutPreemptively(Duration.ofMinutes(10),
        () -> new long[] {bestCpuNanos(1 << 20, 3), bestCpuNanos(8 << 20, 1)});
    // Linear is 8x; each line was once copied again for every 1024 characters read, 64x here.
    assertTrue(nanos[1] < 12 * nanos[0], "1 MiB: " + nanos[0] / 1_000_000 + " ms, 8 MiB: " + nanos[1] / 1_000_000
        + " ms");
  }

  /** The least CPU time this thread spent linting a ConfigMap with two lines of {@code length / 2} characters. */
  private static long bestCpuNanos(int length, int runs) {
    String text = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big}\ndata:\n  plain: " + "x".repeat(length / 2)
        + "\n  quoted: \"" + "y".repeat(length / 2) + "\"\n";
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long best = Long.MAX_VALUE;
    for (int i = 0; i < runs; i++) {
      long start = threads.getCurrentThreadCpuTime();
      LintResult r = LINTER.lint("big.yaml", text, Config.DEFAULT);
      best = Math.min(best, threads.getCurrentThreadCpuTime() - start);
      assertEquals(List.of(), ids(r));
    }
    return best;
  }

  @Test
  void recursiveAliasIsRefused() {
    LintResult r = lint("rec.yaml", "a: &x\n  b: *x\n");
    assertTrue(ids(r).contains("HL002"), ids(r).toString());
  }

  @Test
  void deepNestingIsRefusedNotAStackOverflow() {
    String deep = "[".repeat(100_000) + "]".repeat(100_000);
    LintResult r = lint("deep.yaml", deep);
    assertEquals(List.of("HL002"), ids(r));
    assertTrue(r.findings().get(0).message().contains("Nesting deeper than 500"), r.findings().get(0).message());
    StringBuilder deepBlock = new StringBuilder();
    for (int i = 0; i < 1000; i++) {
      deepBlock.append(" ".repeat(i)).append("b:\n");
    }
    assertTrue(ids(lint("deep2.yaml", deepBlock.toString())).contains("HL002"));
  }

  @Test
  void brokenYamlKeepsTheOtherDocuments() {
    String text = "kind: [\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n"
        + "    - name: a\n      lifecycle: {postStart: {}}\n";
    LintResult r = lint("broken.yaml", text);
    assertEquals(List.of("HL001", "HL101"), ids(r));
    assertEquals(1, r.findings().get(0).range().start().line());
  }

  @Test
  void randomBytesNeverThrow() {
    Random random = new Random(42);
    for (int i = 0; i < 300; i++) {
      byte[] b = new byte[random.nextInt(400)];
      random.nextBytes(b);
      LintResult r = LINTER.lint("junk.yaml", b, Config.DEFAULT);
      assertTrue(r.failures().isEmpty());
      String text = new String(b, StandardCharsets.ISO_8859_1).replace('\0', ' ');
      assertTrue(LINTER.lint("junk.yaml", text, Config.DEFAULT).failures().isEmpty());
    }
  }

  @Test
  void wrongTypesEverywhereAreNotCrashes() {
    String text = """
        apiVersion: v1
        kind: Pod
        metadata: [1, 2]
        spec:
          terminationGracePeriodSeconds: [30]
          containers:
            - 7
            - name: {a: b}
              lifecycle: "preStop"
            - name: b
              lifecycle:
                preStop: 5
                postStart: [exec]
        ---
        apiVersion: v1
        kind: List
        items: "none"
        ---
        kind: Template
        apiVersion: template.openshift.io/v1
        objects: 3
        ---
        - a
        - b
        ---
        just a string
        """;
    LintResult r = lint("types.yaml", text);
    assertTrue(r.failures().isEmpty(), r.failures().toString());
  }

  @Test
  void invalidUtf8AndBomAndCrlf() {
    LintResult bad = LINTER.lint("x.yaml", new byte[] {'a', ':', ' ', (byte) 0xC3, (byte) 0x28}, Config.DEFAULT);
    assertEquals(List.of("HL002"), ids(bad));
    String crlf = "\uFEFFapiVersion: v1\r\nkind: Pod\r\nmetadata: {name: p}\r\nspec:\r\n  containers:\r\n"
        + "    - name: a\r\n      lifecycle:\r\n        preStop: {}\r\n";
    LintResult r = lint("crlf.yaml", crlf);
    assertEquals(List.of("HL101"), ids(r));
    assertEquals(7, r.findings().get(0).range().start().line());
    assertEquals(8, r.findings().get(0).range().start().column());
  }

  // A size check: it takes seconds, so it runs in the full lane.
  @Tag("slow")
  @Test
  void twentyMegabytesAreLinted() {
    String doc = """
        apiVersion: v1
        kind: Pod
        metadata:
          name: p
        spec:
          terminationGracePeriodSeconds: 5
          containers:
            - name: a
              image: nginx
              lifecycle:
                preStop:
                  exec:
                    command: ["sleep", "10"]
        ---
        """;
    StringBuilder sb = new StringBuilder(21 * 1024 * 1024);
    int docs = 0;
    while (sb.length() < 20 * 1024 * 1024) {
      sb.append(doc);
      docs++;
    }
    LintResult r = lint("big.yaml", sb.toString());
    assertEquals(docs, r.findings().stream().filter(f -> f.ruleId().equals("HL401")).count());
    assertTrue(r.failures().isEmpty());
  }

  @Test
  void tooLargeIsRefusedWithAFinding() {
    byte[] big = new byte[Linter.MAX_BYTES + 1];
    java.util.Arrays.fill(big, (byte) ' ');
    LintResult r = LINTER.lint("huge.yaml", big, Config.DEFAULT);
    assertEquals(List.of("HL002"), ids(r));
  }

  @Test
  void jsonWithTabsAndPositions() {
    String json = "{\n\t\"apiVersion\": \"v1\",\n\t\"kind\": \"Pod\",\n\t\"metadata\": {\"name\": \"p\"},\n"
        + "\t\"spec\": {\"containers\": [{\"name\": \"a\", \"lifecycle\": {\"preStop\": {}}}]}\n}\n";
    LintResult r = lint("pod.json", json);
    assertEquals(List.of("HL101"), ids(r));
    assertEquals(4, r.findings().get(0).range().start().line());
  }
}
