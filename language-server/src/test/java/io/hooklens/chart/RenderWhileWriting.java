package io.hooklens.chart;

import io.hooklens.core.engine.Targets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Renders the chart named by its argument a few times while another thread writes numbered lines to
 * standard error, then says how many it wrote: HelmLogTest checks that every line arrived, in order.
 */
public final class RenderWhileWriting {
  private RenderWhileWriting() {}

  public static void main(String[] args) throws Exception {
    AtomicBoolean rendering = new AtomicBoolean(true);
    Thread writer = new Thread(() -> {
      int i = 0;
      while (rendering.get()) {
        System.err.println("line " + i++);
        try {
          Thread.sleep(1);
        } catch (InterruptedException e) {
          return;
        }
      }
      System.err.println("wrote " + i);
    });
    writer.start();
    for (int i = 0; i < 5; i++) {
      ChartLinter.render(Path.of(args[0]), List.of(), SetValues.NONE, Targets.DEFAULT_KUBERNETES);
    }
    rendering.set(false);
    writer.join();
  }
}
