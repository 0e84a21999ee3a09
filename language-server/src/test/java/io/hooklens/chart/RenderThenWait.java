package io.hooklens.chart;

import io.hooklens.core.engine.Targets;
import java.nio.file.Path;
import java.util.List;

/** Renders the chart named by its argument, says so, then waits: SignalHandlersTest ends it with SIGTERM. */
public final class RenderThenWait {
  private RenderThenWait() {}

  public static void main(String[] args) throws Exception {
    try (ChartCopy copy = ChartCopy.of(Path.of(args[0]))) {
      ChartRenderer.render(copy, List.of(), SetValues.NONE.forHelm(copy), Targets.DEFAULT_KUBERNETES);
    }
    System.out.println("rendered");
    System.out.flush();
    Thread.sleep(120_000);
  }
}
