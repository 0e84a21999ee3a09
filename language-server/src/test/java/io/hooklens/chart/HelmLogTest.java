package io.hooklens.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.ChildJvm;
import io.hooklens.TestCharts;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** While Helm's log lines are kept off standard error, what the JVM itself writes there is not lost. */
class HelmLogTest {
  @TempDir
  Path dir;

  @Test
  void theJvmsOwnStandardErrorDuringARenderArrivesWholeAndInOrder() throws Exception {
    Path chart = TestCharts.write(dir, "logs", Map.of("templates/written.yaml", TestCharts.SKIPPED_HOOK));
    ChildJvm r = ChildJvm.run(dir, RenderWhileWriting.class, chart.toString());
    assertEquals(0, r.exit(), r.err());
    List<String> lines = r.err().lines().toList();
    int written = Integer.parseInt(lines.get(lines.size() - 1).replace("wrote ", ""));
    assertTrue(written > 0, "the thread wrote while Helm rendered");
    for (int i = 0; i < written; i++) {
      assertEquals("line " + i, lines.get(i), "line " + i + " of " + written);
    }
    assertEquals(written + 1, lines.size(), "nothing but the thread's lines: " + lines.subList(written, lines.size()));
  }
}
