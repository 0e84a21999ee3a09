package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hooklens lint --fix}: safe fixes written back atomically, the rest reported. */
class LintFixCommandTest {
  /** A weight written as a number (HL207, safe), a padded weight (HL206, safe) and a grace period (HL401). */
  static final String BROKEN = "\uFEFF# hooks of the release\r\n"
      + "apiVersion: v1\r\n"
      + "kind: Pod\r\n"
      + "metadata:\r\n"
      + "  name: web\r\n"
      + "  annotations:\r\n"
      + "    helm.sh/hook: Pre-Install   # case\r\n"
      + "    helm.sh/hook-weight: 5\r\n"
      + "spec:\r\n"
      + "  restartPolicy: Never\r\n"
      + "  terminationGracePeriodSeconds: 10\r\n"
      + "  containers:\r\n"
      + "    - name: app\r\n"
      + "      image: nginx\r\n"
      + "      lifecycle:\r\n"
      + "        preStop:\r\n"
      + "          exec: {command: [\"sleep\", \"20\"]}\r\n";
  static final String FIXED = BROKEN.replace("Pre-Install", "pre-install").replace("weight: 5", "weight: \"5\"");

  @TempDir
  Path dir;

  @Test
  void fixWritesSafeFixesKeepingBomLineEndingsAndPermissions() throws Exception {
    Path file = dir.resolve("pod.yaml");
    Files.writeString(file, BROKEN, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
    CliRun r = CliRun.of("lint", "--fix", "--color", "never", file.toString());
    assertEquals(FIXED, Files.readString(file, StandardCharsets.UTF_8));
    assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    assertTrue(r.err().contains("fixed 2 problems in " + file), r.err());
    // The grace period is not raised unattended: it is reported, and fails the run.
    assertEquals(1, r.exit(), r.err());
    assertTrue(r.out().contains("HL401"), r.out());
    assertFalse(r.out().contains("HL207") || r.out().contains("HL225"), r.out());
    assertTrue(r.out().contains("after fixing 2 problems"), r.out());
    try (var s = Files.list(dir)) {
      assertEquals(1, s.count(), "no temporary file is left behind");
    }
  }

  @Test
  void withoutFixTheFileIsUntouched() throws Exception {
    Path file = dir.resolve("pod.yaml");
    Files.writeString(file, BROKEN, StandardCharsets.UTF_8);
    CliRun r = CliRun.of("lint", file.toString());
    assertEquals(1, r.exit());
    assertEquals(BROKEN, Files.readString(file, StandardCharsets.UTF_8));
    assertTrue(r.out().contains("HL207"), r.out());
  }

  @Test
  void aCleanFileIsNotRewritten() throws Exception {
    Path file = dir.resolve("ok.yaml");
    Files.writeString(file, LintCommandTest.CLEAN, StandardCharsets.UTF_8);
    var before = Files.getLastModifiedTime(file);
    Files.setLastModifiedTime(file, java.nio.file.attribute.FileTime.fromMillis(before.toMillis() - 60_000));
    var old = Files.getLastModifiedTime(file);
    CliRun r = CliRun.of("lint", "--fix", file.toString());
    assertEquals(0, r.exit(), r.err());
    assertEquals(old, Files.getLastModifiedTime(file));
    assertFalse(r.err().contains("fixed"), r.err());
  }

  @Test
  void jsonReportCarriesTheFixedCount() throws Exception {
    Path file = dir.resolve("a/pod.yaml");
    Files.createDirectories(file.getParent());
    Files.writeString(file, BROKEN, StandardCharsets.UTF_8);
    CliRun r = CliRun.of("lint", "--fix", "--format", "json", dir.toString());
    JsonNode json = new ObjectMapper().readTree(r.out());
    assertEquals(2, json.path("summary").path("fixed").asInt(), r.out());
    java.util.List<String> rules = new java.util.ArrayList<>();
    json.path("findings").forEach(f -> rules.add(f.path("rule").asText()));
    assertTrue(rules.contains("HL401") && !rules.contains("HL207") && !rules.contains("HL225"), rules.toString());
    JsonNode plain = new ObjectMapper().readTree(CliRun.of("lint", "--format", "json", dir.toString()).out());
    assertTrue(plain.path("summary").path("fixed").isMissingNode(), "no fixed count without --fix");
  }

  @Test
  void stdinFixPrintsTheFixedTextAndReportsOnStandardError() {
    InputStream saved = System.in;
    try {
      System.setIn(new ByteArrayInputStream(BROKEN.getBytes(StandardCharsets.UTF_8)));
      CliRun r = CliRun.of("lint", "--fix", "--color", "never", "--stdin-filename", "k8s/pod.yaml", "-");
      assertEquals(FIXED, r.out());
      assertTrue(r.err().contains("k8s/pod.yaml:16:9: warning HL401"), r.err());
      assertEquals(1, r.exit());
    } finally {
      System.setIn(saved);
    }
  }

  @Test
  void chartTemplatesGetVerifiedFixesOnly() throws Exception {
    Path chart = dir.resolve("shop");
    Files.createDirectories(chart.resolve("templates"));
    Files.writeString(chart.resolve("Chart.yaml"), "apiVersion: v2\nname: shop\nversion: 0.1.0\n");
    Files.writeString(chart.resolve("values.yaml"), "weight: 3\n");
    String template = """
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: {{ .Release.Name }}-seed
          annotations:
            helm.sh/hook: post-install
            helm.sh/hook-weight: 1
        ---
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: {{ .Release.Name }}-other
          annotations:
            helm.sh/hook: post-install
            helm.sh/hook-weight: {{ .Values.weight }}
        """;
    Path file = chart.resolve("templates/seed.yaml");
    Files.writeString(file, template);
    CliRun r = CliRun.of("lint", "--fix", "--format", "json", chart.toString());
    // The literal weight is quoted; the one a template action writes is Helm's output and is left alone.
    assertEquals(template.replace("weight: 1\n", "weight: \"1\"\n"), Files.readString(file), r.err());
    assertTrue(r.err().contains("fixed 1 problem in " + file), r.err());
  }
}
