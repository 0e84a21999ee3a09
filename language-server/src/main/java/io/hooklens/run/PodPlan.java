package io.hooklens.run;

import io.fabric8.kubernetes.api.model.Pod;
import io.hooklens.core.model.Resource;
import java.util.List;

/** One pod the runner creates: from which object, with which grace period, and what it runs. */
public final class PodPlan {
  private final Resource owner;
  private final String name;
  private final long graceSeconds;
  private final List<ContainerPlan> containers;
  private final List<String> notes;
  private final Pod pod;

  PodPlan(Resource owner, String name, long graceSeconds, List<ContainerPlan> containers, List<String> notes,
      Pod pod) {
    this.owner = owner;
    this.name = name;
    this.graceSeconds = graceSeconds;
    this.containers = List.copyOf(containers);
    this.notes = List.copyOf(notes);
    this.pod = pod;
  }

  /** The object the pod template belongs to, {@code Kind/name}. */
  public String resource() {
    return owner.displayName();
  }

  /** The YAML document (0-based) the object is in. */
  public int document() {
    return owner.document();
  }

  /** The 0-based line the object starts on. */
  public int line() {
    return owner.root().range().start().line();
  }

  public String podName() {
    return name;
  }

  public long graceSeconds() {
    return graceSeconds;
  }

  public List<ContainerPlan> containers() {
    return containers;
  }

  /** What the runner changed or left out of the template, and why. */
  public List<String> notes() {
    return notes;
  }

  /** The pod to create, a fresh copy each time (the API client fills in fields). */
  Pod pod() {
    return new io.fabric8.kubernetes.api.model.PodBuilder(pod).build();
  }
}
