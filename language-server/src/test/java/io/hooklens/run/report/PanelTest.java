package io.hooklens.run.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What the timeline panels draw of a step's containers: each run from its process's start, with its back-off gap. */
class PanelTest {
  // "app" starts 0.9 s after the pod's creation and runs its postStart beside its entrypoint; "job" runs twice.
  private static Step step() {
    ContainerResult app = new ContainerResult("app", "serve", 900L, 1300L, 5000L, 0, "Completed", 0,
        List.of(new ContainerResult.Attempt(0, 900L, 1300L, 5000L, 0, "Completed", null, "", 0)), "", 0, null, List.of());
    ContainerResult job = new ContainerResult("job", "exit 3", 1000L, null, 2500L, 3, "Error", 1,
        List.of(new ContainerResult.Attempt(0, 1000L, null, 1100L, 3, "Error", 1200L, "", 0),
            new ContainerResult.Attempt(1, 2300L, null, 2500L, 3, "Error", null, "", 0)), "", 0, null, List.of());
    HookResult postStart = new HookResult("app", "postStart", "exec warm", 950L, 1300L, "succeeded", null, "", 0,
        List.of(), 0);
    return new Step("pod", "delete", "Pod/p", "default", "p", 2, 4000L, 5100L, "node", List.of(app, job),
        List.of(postStart), List.of(new Signal("app", "SIGTERM", 4000)), List.of(), List.of(), List.of());
  }

  private static Panel.Row row(Panel panel, String label) {
    return panel.rows().stream().filter(r -> r.label().equals(label)).findFirst().orElseThrow();
  }

  @Test
  void aContainersLineStartsWhereItsProcessStartedSoThatItsPostStartShowsBesideIt() {
    Panel start = Panel.of(step()).get(0);
    assertEquals(List.of(new Panel.Span(900, start.lastMs())), row(start, "app").spans());
    assertEquals(950, row(start, "app postStart").bars().get(0).fromMs());
    String text = TextReport.timelines(new RunReport(1, "p.yaml", "embedded", true, List.of(step()), List.of(),
        List.of(), 900L), 100);
    String appRow = text.lines().filter(l -> l.startsWith("  app ") && !l.contains("postStart")).findFirst()
        .orElseThrow();
    String axis = text.lines().filter(l -> l.strip().startsWith("0s")).findFirst().orElseThrow();
    assertTrue(appRow.indexOf('─') > axis.indexOf("0s") + 10, "the line starts at 0.9 s:\n" + text);
  }

  @Test
  void eachRunIsItsOwnSpanWithTheBackOffBetween() {
    Panel start = Panel.of(step()).get(0);
    Panel.Row job = row(start, "job");
    assertEquals(List.of(new Panel.Span(1000, 1100), new Panel.Span(2300, 2500)), job.spans());
    assertEquals(List.of('x', 'x'), job.marks().stream().map(Panel.Mark::symbol).toList());
    assertEquals("2 runs; exit 3 at 2.5 s", job.note());
    Panel.Row stopped = row(Panel.of(step()).get(1), "job");
    assertEquals(List.of(), stopped.spans());
    assertEquals("had ended before (exit 3)", stopped.note());
  }
}
