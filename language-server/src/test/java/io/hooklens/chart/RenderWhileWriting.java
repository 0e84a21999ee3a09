package io.hooklens.chart;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Renders the chart named by its argument a few times with Helm in this JVM, as the render worker does, while
 * another thread writes numbered lines to standard error, then says how many it wrote: HelmLogTest checks that
 * every line arrived, in order.
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
      RenderWorker.warmUp(Path.of(args[0]));
    }
    rendering.set(false);
    writer.join();
  }
}
