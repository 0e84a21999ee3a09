package io.hooklens.chart;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** A chart rendered by Helm in this very JVM, as the render worker renders it, for tests of what Helm does to a JVM. */
final class InProcessHelm {
  private InProcessHelm() {}

  static ChartRenderer.Rendering render(Path chart) throws IOException {
    try (ChartCopy copy = ChartCopy.of(chart)) {
      return HelmCall.render(new RenderProtocol.Request(copy.root().toString(), List.of(), "", "", "", "v1.34.0",
          Long.MAX_VALUE));
    }
  }
}
