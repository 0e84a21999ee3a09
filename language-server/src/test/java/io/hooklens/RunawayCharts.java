package io.hooklens;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/** Charts whose rendering runs away, written by the tests that need them, and Helm's render limits lowered. */
public final class RunawayCharts {
  public static final String TIMEOUT = "hooklens.helm.timeoutSeconds";
  public static final String MEMORY = "hooklens.helm.memoryMiB";
  public static final String OUTPUT = "hooklens.helm.outputMiB";

  /** A template that makes Helm build a list of 10^8 numbers and write a letter per item: gigabytes of memory. */
  public static final String GROWS = """
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: grows
      data:
        x: "{{ range until 100000000 }}x{{ end }}"
      """;

  /** A template that makes Helm loop 10^10 times writing nothing: hours, in little memory. */
  public static final String SPINS = """
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: spins
      {{- range until 100000 }}{{ range until 100000 }}{{ end }}{{ end }}
      """;

  private RunawayCharts() {}

  /** A ConfigMap template that renders to a little more than {@code mib} MiB. */
  public static String large(int mib) {
    return """
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: large
        data:
        {{- range until %d }}
          k{{ . }}: "{{ repeat 1000 "y" }}"
        {{- end }}
        """.formatted(mib * 1050);
  }

  /** Writes a chart named {@code name} in {@code dir} whose only template is {@code template}. */
  public static Path write(Path dir, String name, String template) throws IOException {
    return TestCharts.write(dir, name, Map.of("templates/" + name + ".yaml", template));
  }

  /** Runs {@code body} with the system properties given (such as lowered limits), then puts the old ones back. */
  public static <T> T withProperties(Map<String, String> properties, Callable<T> body) throws Exception {
    Map<String, String> old = new HashMap<>();
    properties.forEach((k, v) -> old.put(k, System.setProperty(k, v)));
    try {
      return body.call();
    } finally {
      old.forEach((k, v) -> {
        if (v == null) {
          System.clearProperty(k);
        } else {
          System.setProperty(k, v);
        }
      });
    }
  }
}
