package io.hooklens.app;

import io.hooklens.run.ClusterReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Lints the workloads and Helm release hooks a cluster serves ({@link ClusterReader}, read-only), each object as a
 * file named by its {@code cluster://} location; what could not be read goes to the sink as a note.
 */
public final class ClusterAudit {
  /** The namespace that stands for all of them. */
  public static final String ALL_NAMESPACES = ClusterReader.ALL_NAMESPACES;

  private ClusterAudit() {}

  /**
   * Lints what the cluster of a kubeconfig context serves, as {@code run --context} resolves the context.
   *
   * @param kubeconfig the kubeconfig, or null for {@code KUBECONFIG}, then {@code ~/.kube/config}
   * @param namespace the namespace to read, {@link #ALL_NAMESPACES}, or null for the context's
   * @return how many kinds could not be read; a cluster that cannot be reached at all is told as a problem
   */
  public static int context(String context, Path kubeconfig, String namespace, Lint lint, Lint.Sink sink)
      throws ConfigResolver.ConfigException {
    return ClusterReader.context(context, kubeconfig, namespace, new Linting(lint, sink));
  }

  /** Each object read, linted; each thing that could not be read, told. */
  private record Linting(Lint lint, Lint.Sink sink) implements ClusterReader.Visitor<ConfigResolver.ConfigException> {
    @Override
    public void object(String location, String yaml) throws ConfigResolver.ConfigException {
      lint.text(location, yaml.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void note(String message) {
      sink.note(message);
    }

    @Override
    public void problem(String message) {
      sink.problem(message);
    }
  }
}
