package io.hooklens.run.cluster;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Path;

/** A cluster API a run starts on this machine for itself, and removes with everything it started on close. */
public interface LocalCluster extends AutoCloseable {
  KubernetesClient client();

  /** The namespace a run's pods go to. */
  String namespace();

  /** Writes a kubeconfig for kubectl whose only context is this cluster, readable by its owner only. */
  Path writeKubeconfig(Path file) throws IOException;

  @Override
  void close();
}
