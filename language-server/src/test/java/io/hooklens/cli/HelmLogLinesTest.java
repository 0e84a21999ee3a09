package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.ChildJvm;
import io.hooklens.TestCharts;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Helm logs with Go's log package straight to the process's standard error; a real process shows whether
 * those lines reach the user, so the CLI runs in a JVM of its own.
 */
class HelmLogLinesTest {
  /** How Go's log package starts a line. */
  private static final Pattern GO_LOG_LINE = Pattern.compile("(?m)^\\d{4}/\\d\\d/\\d\\d \\d\\d:\\d\\d:\\d\\d ");

  @TempDir
  Path dir;

  @Test
  void helmsLogLinesStayOffStandardErrorAndAHookHelmSkipsIsAFinding() throws Exception {
    Path chart = TestCharts.write(dir, "logs", Map.of(
        "values.yaml", "db:\n  host: x\n",
        "templates/literal.yaml",
        "kind: ConfigMap\nmetadata: {name: literal, annotations: {helm.sh/hook: pre-instal}}\n",
        "templates/written.yaml", TestCharts.SKIPPED_HOOK));
    // db.host is text in values.yaml: Helm warns that it ignores it under the table --set makes.
    ChildJvm r = ChildJvm.run(dir, Main.class, "lint", "--set", "db.host.port=5432", chart.toString());
    assertEquals(1, r.exit(), r.err());
    assertFalse(r.err().contains("skipping unknown hook"), r.err());
    assertFalse(r.err().contains("Ignoring non-table value"), r.err());
    assertFalse(GO_LOG_LINE.matcher(r.err()).find(), r.err());
    assertTrue(r.out().contains(chart.resolve("templates/literal.yaml") + ":2:55: error HL201 Unknown hook event "
        + "\"pre-instal\"; did you mean \"pre-install\"?"), r.out());
    assertTrue(r.out().contains(chart.resolve("Chart.yaml") + ":1:1: error HL201 Helm skips a resource whose "
        + "helm.sh/hook, written by a template action, is \"post-instal\""), r.out());
  }
}
