package io.hooklens.run.node;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The volumes the node gives a pod's containers: an emptyDir is a directory of the pod's own, shared by its
 * containers, kept across restarts and deleted with the pod; a hostPath is bound as given, read-only unless the
 * mount says {@code readOnly: false} in so many words (which a real API server drops: the run tells the agent). Other volume types are left out with a warning. Used from
 * the pod's loop only.
 */
final class PodVolumes {
  private final NodeAgent agent;
  private final Pod pod;
  private Path dir;

  PodVolumes(NodeAgent agent, Pod pod) {
    this.agent = agent;
    this.pod = pod;
  }

  /** The mounts of a container that the node can give it; {@code warning} hears what it leaves out. */
  List<Sandbox.Mount> mounts(Container spec, Consumer<String> warning) throws IOException {
    List<Sandbox.Mount> mounts = new ArrayList<>();
    for (VolumeMount mount : spec.getVolumeMounts() == null ? List.<VolumeMount>of() : spec.getVolumeMounts()) {
      Volume volume = pod.getSpec().getVolumes() == null ? null : pod.getSpec().getVolumes().stream()
          .filter(v -> v.getName().equals(mount.getName())).findFirst().orElse(null);
      Path source;
      boolean readOnly = Boolean.TRUE.equals(mount.getReadOnly());
      if (volume != null && volume.getEmptyDir() != null) {
        source = emptyDir(volume.getName());
      } else if (volume != null && volume.getHostPath() != null) {
        source = Path.of(volume.getHostPath().getPath());
        readOnly = !Boolean.FALSE.equals(mount.getReadOnly()) && !agent.writableHostMounts().contains(
            new NodeAgent.HostMount(volume.getHostPath().getPath(), mount.getMountPath()));
      } else {
        warning.accept("volume " + mount.getName()
            + (volume == null ? " is not a volume of the pod" : " is neither emptyDir nor hostPath")
            + "; the embedded node leaves " + mount.getMountPath() + " unmounted");
        continue;
      }
      if (mount.getSubPath() != null && !mount.getSubPath().isEmpty()) {
        source = source.resolve(mount.getSubPath());
      }
      if (volume.getEmptyDir() != null) {
        Files.createDirectories(source);
        Sandbox.share(emptyDir(volume.getName()));
      }
      mounts.add(new Sandbox.Mount(source, mount.getMountPath(), readOnly));
    }
    if (!mounts.isEmpty() && !agent.sandbox().isolated()) {
      warning.accept("volumes need bubblewrap; without it they are not mounted");
      return List.of();
    }
    return mounts;
  }

  private Path emptyDir(String name) throws IOException {
    if (dir == null) {
      dir = Files.createDirectories(agent.volumeRoot().resolve(pod.getMetadata().getUid()));
    }
    return dir.resolve(name);
  }

  /** Deletes the pod's emptyDir volumes. */
  void delete() {
    if (dir != null) {
      NodeAgent.deleteTree(dir);
      dir = null;
    }
  }
}
