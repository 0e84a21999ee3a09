package io.hooklens;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Small charts that a test writes for itself. */
public final class TestCharts {
  /**
   * A template whose {@code helm.sh/hook} key a template action writes, naming an event Helm does not know:
   * Helm leaves the resource out and logs that it skips it.
   */
  public static final String SKIPPED_HOOK = """
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: written
        annotations:
          {{ printf "helm.sh/%s" "hook" }}: post-instal
      """;

  private TestCharts() {}

  /** Writes a chart named {@code name} in {@code dir}: its Chart.yaml and the files given by their path in it. */
  public static Path write(Path dir, String name, Map<String, String> files) throws IOException {
    Path chart = Files.createDirectories(dir.resolve(name));
    Files.writeString(chart.resolve("Chart.yaml"), "apiVersion: v2\nname: " + name + "\nversion: 1.0.0\n");
    for (Map.Entry<String, String> f : files.entrySet()) {
      Path file = chart.resolve(f.getKey());
      Files.createDirectories(file.getParent());
      Files.writeString(file, f.getValue());
    }
    return chart;
  }
}
