package io.hooklens.run.node;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.hooklens.run.kube.BoundedOutput;
import io.hooklens.run.kube.EventRecorder;
import io.hooklens.run.node.Timeline.Mark;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What the node tells of one pod: the kubelet's events in the API, each container named by
 * {@code involvedObject.fieldPath}, and the marks on the node's timeline. Safe from any thread: a hook records how
 * it ended whether or not its pod is still there.
 */
final class PodJournal {
  private final EventRecorder recorder;
  private final Timeline timeline;
  private final Pod pod;
  private final String key;
  private final Set<String> initContainers;

  PodJournal(EventRecorder recorder, Timeline timeline, Pod pod, String key) {
    this.recorder = recorder;
    this.timeline = timeline;
    this.pod = pod;
    this.key = key;
    List<Container> inits = pod.getSpec().getInitContainers();
    this.initContainers = inits == null ? Set.of() : inits.stream().map(Container::getName).collect(Collectors.toSet());
  }

  /** An event about the pod ({@code container} null), or about one of its containers. */
  void event(String container, boolean warning, String reason, String message) {
    String fieldPath = container == null ? null
        : (initContainers.contains(container) ? "spec.initContainers{" : "spec.containers{") + container + "}";
    recorder.record(pod, fieldPath, "kubelet", warning, reason, message);
  }

  /** A mark on the timeline, about the pod ({@code container} null) or one of its containers. */
  void mark(String container, Mark mark, String detail) {
    timeline.add(key, container, mark, detail);
  }

  /** A hook's end, with what it printed. */
  void mark(String container, Mark mark, boolean failed, String detail, BoundedOutput.Tail output) {
    timeline.add(key, container, mark, failed, detail, output);
  }
}
