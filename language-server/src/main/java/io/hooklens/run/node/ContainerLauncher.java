package io.hooklens.run.node;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.LifecycleHandler;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hooklens.run.kube.BoundedOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Starts one run of a container in the pod's sandbox, as the kubelet asks its runtime to: the environment (the
 * image's, then the container's, read through the API), the command (its own, else the image's), the volumes, its
 * user and its memory limit. Used from the pod's loop only.
 */
final class ContainerLauncher {
  /** What came of a start: a run, a configuration to wait for, or a failure. */
  sealed interface Outcome permits Started, CannotCreate, Failed {}

  record Started(ContainerSlot.Run run, List<String> argv) implements Outcome {}

  /**
   * The container cannot be created yet, and waits with {@code reason}: a ConfigMap, Secret or key the environment
   * needs is missing, or its user is refused or unknown. The message is the kubelet's.
   */
  record CannotCreate(String reason, String message) implements Outcome {}

  record Failed(String message) implements Outcome {}

  private final NodeAgent agent;
  private final Pod pod;
  private final PodVolumes volumes;

  ContainerLauncher(NodeAgent agent, Pod pod, PodVolumes volumes) {
    this.agent = agent;
    this.pod = pod;
    this.volumes = volumes;
  }

  /**
   * Starts the container; its output goes to {@code printed}, and {@code warning} hears what the node leaves
   * out.
   */
  Outcome launch(Container spec, Sandbox.PodNetwork network, BoundedOutput printed, Consumer<String> warning) {
    Image image = agent.image(spec.getImage());
    Map<String, String> env;
    try {
      env = Collections.unmodifiableMap(new LinkedHashMap<>(
          new Environment(agent.client(), pod, network.ip(), warning).of(image, spec)));
    } catch (Environment.ConfigError e) {
      return new CannotCreate("CreateContainerConfigError", e.getMessage());
    }
    Sandbox.Identity identity;
    try {
      identity = ContainerUser.of(pod, spec, image);
    } catch (ContainerUser.Refused e) {
      return new CannotCreate(e.reason, e.getMessage());
    }
    // The kubelet expands $(NAME) in the container's command and args, not in the image's.
    List<String> argv = Image.argv(image, Environment.expand(spec.getCommand(), env),
        Environment.expand(spec.getArgs(), env));
    if (argv.isEmpty()) {
      return new Failed("container " + spec.getName() + " has no command, and the embedded node knows no "
          + "entrypoint for " + spec.getImage() + " (give its image archive, from docker save)");
    }
    String workingDir = spec.getWorkingDir() != null && !spec.getWorkingDir().isEmpty() ? spec.getWorkingDir()
        : image == null ? null : image.workingDir();
    try {
      Sandbox.ContainerProcess process = agent.sandbox().startContainer(network, pod.getMetadata().getName(), argv,
          env, workingDir, volumes.mounts(spec, warning), image == null ? null : image.root(), execWords(spec, env),
          memoryLimit(spec), identity);
      long outputFrom = printed.written();
      HandlerRunner.Output output = HandlerRunner.Output.drain(process.process.getInputStream(), printed);
      return new Started(new ContainerSlot.Run(process, output, outputFrom, env, stopSignal(spec, image, warning),
          new CompletableFuture<>(), new CompletableFuture<>()), argv);
    } catch (IOException e) {
      return new Failed(e.getMessage());
    }
  }

  /**
   * What stops it: the image's {@code StopSignal}, else SIGTERM, as containerd decides it. {@code lifecycle.stopSignal}
   * is dropped by an API server without the ContainerStopSignals feature gate (alpha, off by default up to 1.36:
   * dropContainerStopSignals), so the kubelet never sees it; the plan says so.
   */
  private static StopSignal stopSignal(Container spec, Image image, Consumer<String> warning) {
    if (image == null || image.stopSignal() == null) {
      return StopSignal.SIGTERM;
    }
    return StopSignal.parse(image.stopSignal()).orElseGet(() -> {
      warning.accept("the image's StopSignal " + image.stopSignal() + " names no signal: it is stopped with SIGTERM");
      return StopSignal.SIGTERM;
    });
  }

  /** {@code resources.limits.memory} in bytes, if set. */
  private static Long memoryLimit(Container spec) {
    Quantity limit = spec.getResources() == null || spec.getResources().getLimits() == null ? null
        : spec.getResources().getLimits().get("memory");
    return limit == null ? null : Quantity.getAmountInBytes(limit).longValue();
  }

  /** The words of the container's exec hooks, expanded as the kubelet expands them when it runs them. */
  private static List<String> execWords(Container spec, Map<String, String> env) {
    List<String> words = new ArrayList<>();
    if (spec.getLifecycle() != null) {
      for (LifecycleHandler handler : new LifecycleHandler[] {spec.getLifecycle().getPostStart(),
          spec.getLifecycle().getPreStop()}) {
        if (handler != null && handler.getExec() != null && handler.getExec().getCommand() != null) {
          words.addAll(Environment.expand(handler.getExec().getCommand(), env));
        }
      }
    }
    return words;
  }
}
