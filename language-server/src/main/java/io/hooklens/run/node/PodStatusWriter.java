package io.hooklens.run.node;

import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.HostIP;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodIP;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.PodResource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.hooklens.run.node.ContainerSlot.Kind;
import io.hooklens.run.node.ContainerSlot.State;
import io.hooklens.run.node.ContainerSlot.Termination;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The kubelet's status manager for one pod: writes what its containers are to the API (phase, conditions,
 * container states with exit codes, restarts and {@code started}), and removes the pod once it has stopped. Called
 * only from the pod's loop, so that an older status never overwrites a newer one.
 */
final class PodStatusWriter {
  static final String DEADLINE_MESSAGE = "Pod was active on the node longer than the specified deadline";
  private static final Logger LOG = Logger.getLogger(PodStatusWriter.class.getName());

  private final NodeAgent agent;
  private final Pod pod;
  // Written on the pod's loop only, as every status is.
  private String podIp;
  private final String startTime = time(Instant.now());

  PodStatusWriter(NodeAgent agent, Pod pod) {
    this.agent = agent;
    this.pod = pod;
  }

  /** The pod's network is open: its status shows the pod's IP from now on, as the kubelet's does. */
  void podIp(String ip) {
    podIp = ip;
  }

  /** Why the pod failed as a whole, if it did: its active deadline, or an init container under Never. */
  enum Failure { NONE, DEADLINE_EXCEEDED, INIT_FAILED }

  void write(List<ContainerSlot> inits, List<ContainerSlot> apps, Failure failure) {
    // A JSON patch replaces the whole status; a merge patch would merge the mock's container lists. Its test of
    // the uid, as the kubelet's patch carries it, keeps a late write off a new pod of the same name.
    String body = Serialization.asJson(List.of(Map.of("op", "test", "path", "/metadata/uid", "value", uid()),
        Map.of("op", "add", "path", "/status", "value", status(inits, apps, failure))));
    try {
      api().subresource("status").patch(PatchContext.of(PatchType.JSON), body);
    } catch (KubernetesClientException e) {
      if (!replaced(e) && !agent.closed()) {
        LOG.log(Level.WARNING, "cannot write status of " + pod.getMetadata().getName(), e);
      }
    }
  }

  /**
   * Removes the stopped pod from the API, as the kubelet does once a deleted pod's containers are gone: with its uid
   * as a precondition, as the kubelet's status manager deletes, since a pod that ended is gone at once and a hook
   * runner may already have created the next one of the same name.
   */
  void remove() {
    String url = agent.client().getMasterUrl().toString().replaceAll("/+$", "") + "/api/v1/namespaces/"
        + pod.getMetadata().getNamespace() + "/pods/" + pod.getMetadata().getName();
    try {
      agent.client().raw(url, "DELETE", Map.of("apiVersion", "v1", "kind", "DeleteOptions", "gracePeriodSeconds", 0,
          "preconditions", Map.of("uid", uid())));
    } catch (KubernetesClientException e) {
      if (!replaced(e) && !agent.closed()) {
        LOG.log(Level.WARNING, "cannot remove pod " + pod.getMetadata().getName(), e);
      }
    }
  }

  private String uid() {
    return pod.getMetadata().getUid();
  }

  /** The pod is gone (404), or another of its name stands in its place (409 from a precondition, 422 from a test). */
  private static boolean replaced(KubernetesClientException e) {
    return e.getCode() == 404 || e.getCode() == 409 || e.getCode() == 422;
  }

  private PodResource api() {
    return agent.client().pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName());
  }

  private PodStatus status(List<ContainerSlot> inits, List<ContainerSlot> apps, Failure failure) {
    List<ContainerStatus> initStatuses = new ArrayList<>();
    boolean initialized = true;
    for (ContainerSlot init : inits) {
      initStatuses.add(containerStatus(init, "PodInitializing"));
      initialized &= initialized(init);
    }
    List<ContainerStatus> statuses = new ArrayList<>();
    for (ContainerSlot app : apps) {
      statuses.add(containerStatus(app, initialized ? "ContainerCreating" : "PodInitializing"));
    }
    boolean ended = apps.stream().allMatch(s -> s.state() == State.TERMINATED);
    boolean allZero = apps.stream().allMatch(s -> s.termination() == null || s.termination().exitCode() == 0);
    boolean anyRunning = apps.stream().anyMatch(PodStatusWriter::runningOrRestarting);
    boolean ready = initialized && apps.stream().allMatch(ContainerSlot::ready);
    String phase = failure != Failure.NONE ? "Failed" : !initialized ? "Pending"
        : ended ? (allZero ? "Succeeded" : "Failed") : anyRunning ? "Running" : "Pending";
    boolean deadline = failure == Failure.DEADLINE_EXCEEDED;
    return new PodStatusBuilder().withPhase(phase).withHostIP(Sandbox.LOOPBACK).withHostIPs(new HostIP(Sandbox.LOOPBACK))
        .withPodIP(podIp).withPodIPs(podIp == null ? List.of() : List.of(new PodIP(podIp)))
        .withReason(deadline ? "DeadlineExceeded" : null).withMessage(deadline ? DEADLINE_MESSAGE : null)
        .withStartTime(startTime)
        .withConditions(condition("PodScheduled", true), condition("Initialized", initialized),
            condition("ContainersReady", ready), condition("Ready", ready))
        .withInitContainerStatuses(initStatuses).withContainerStatuses(statuses).build();
  }

  // As the kubelet's getPhase: a container waiting for its next run keeps a pod Running.
  private static boolean runningOrRestarting(ContainerSlot app) {
    return app.state() == State.RUNNING || app.state() == State.BACK_OFF
        || app.last() != null && app.state() != State.TERMINATED;
  }

  // A sidecar counts once it has started; any other init container once it has succeeded.
  private static boolean initialized(ContainerSlot init) {
    if (init.kind == Kind.SIDECAR) {
      return init.state() == State.RUNNING || init.termination() != null;
    }
    return init.termination() != null && init.termination().exitCode() == 0;
  }

  /** @param waiting why a container that has not started waits */
  private static ContainerStatus containerStatus(ContainerSlot slot, String waiting) {
    ContainerState state = switch (slot.state()) {
      case BACK_OFF -> slot.inCrashLoopBackOff() ? waiting("CrashLoopBackOff", slot.backOffMessage())
          : terminated(slot.termination());
      case TERMINATED -> terminated(slot.termination());
      case RUNNING -> new ContainerStateBuilder().withNewRunning().withStartedAt(time(slot.startedAt())).endRunning()
          .build();
      case WAITING -> slot.configError() != null ? waiting(slot.configReason(), slot.configError())
          : waiting(waiting, null);
      case STARTING -> waiting(waiting, null);
    };
    // While it backs off, its last run is the one that just ended.
    Termination last = slot.inCrashLoopBackOff() ? slot.termination() : slot.last();
    return new ContainerStatusBuilder().withName(slot.name()).withImage(slot.spec.getImage()).withImageID("")
        .withContainerID(slot.run() == null ? null : "hooklens://" + slot.run().process().process.pid())
        .withReady(slot.ready()).withStarted(slot.started()).withRestartCount(slot.restartCount()).withState(state)
        .withLastState(last == null ? null : terminated(last)).build();
  }

  private static ContainerState waiting(String reason, String message) {
    return new ContainerStateBuilder().withNewWaiting().withReason(reason).withMessage(message).endWaiting().build();
  }

  private static ContainerState terminated(Termination end) {
    return new ContainerStateBuilder().withNewTerminated().withExitCode(end.exitCode()).withReason(end.reason())
        .withMessage(end.message()).withStartedAt(time(end.startedAt())).withFinishedAt(time(end.finishedAt()))
        .endTerminated().build();
  }

  private PodCondition condition(String type, boolean status) {
    PodCondition condition = new PodCondition();
    condition.setType(type);
    condition.setStatus(status ? "True" : "False");
    condition.setLastTransitionTime(startTime);
    return condition;
  }

  private static String time(Instant instant) {
    return instant == null ? null : instant.truncatedTo(ChronoUnit.SECONDS).toString();
  }
}
