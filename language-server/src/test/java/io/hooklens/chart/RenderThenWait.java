package io.hooklens.chart;

import java.nio.file.Path;

/**
 * Renders the chart named by its argument with Helm in this JVM, as the render worker does, says so, then waits:
 * SignalHandlersTest ends it with SIGTERM.
 */
public final class RenderThenWait {
  private RenderThenWait() {}

  public static void main(String[] args) throws Exception {
    RenderWorker.warmUp(Path.of(args[0]));
    System.out.println("rendered");
    System.out.flush();
    Thread.sleep(120_000);
  }
}
