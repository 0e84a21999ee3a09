package io.hooklens.run.openshift;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.openshift.DcHook;
import io.hooklens.core.model.openshift.DcPhase;
import io.hooklens.core.model.openshift.FailurePolicy;
import io.hooklens.core.yaml.JsonTree;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YScalar;
import io.hooklens.run.kube.EventRecorder;
import io.hooklens.run.kube.PodLogs;
import io.hooklens.run.kube.PodRun;
import io.hooklens.run.node.Timeline;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The OpenShift deployer's part of a DeploymentConfig rollout ({@code openshift/oc}'s deployer strategies and
 * {@code hookExecutor}), through the API only. Recreate: pre, scale the previous deployment down, mid, scale the
 * new one up, post. Rolling: pre, the rolling update, post (no mid); a first rollout goes through Recreate,
 * recreateParams' hooks included ({@link #hooksOnRollout}). Each execNewPod hook runs as the deployer's
 * hook pod: the named container's image, working directory, env (overlaid by the hook's), resources, security
 * context and the listed volumes, with the hook's command, {@code restartPolicy: OnFailure} for Retry (the
 * kubelet restarts it; there is no other retry loop) and Never otherwise, and {@code activeDeadlineSeconds} of
 * what is left of the strategy's. A failure aborts the rollout under Abort, Retry (once the pod has failed) and
 * any unknown policy; Ignore records it and goes on. tagImages hooks are recorded, not performed (there is no
 * image registry). There are no ReplicationControllers: scaling and the controller's answer to a failed rollout
 * are recorded as steps, not performed.
 */
public final class DeploymentConfigDeployer {
  private static final String POD_FOR = "openshift.io/deployer-pod-for.name";
  private static final String POD_TYPE = "openshift.io/deployer-pod.type";
  private static final String DEPLOYMENT = "openshift.io/deployment.name";
  private static final long HOOK_GRACE_SECONDS = 10;
  private static final long POLL_MILLIS = 20;

  /**
   * How to run: the namespace, where hook output comes from, the clock of all times, progress lines, and a cap on
   * the rollout's {@code activeDeadlineSeconds} (null for none), so that a local run of a hook that Retry restarts
   * forever ends in minutes rather than the default six hours.
   */
  public record Options(String namespace, PodLogs logs, Timeline clock, Consumer<String> progress,
      Long deadlineCapSeconds) {}

  /** What a step is: a lifecycle hook, a scaling step, the rolling update, or the controller after a failure. */
  public enum Kind { HOOK, SCALE, ROLLOUT, CONTROLLER }

  /** How a step ended; scaling and controller steps are recorded only. */
  public enum Outcome { SUCCEEDED, FAILED, IGNORED, RECORDED }

  /**
   * One step of the rollout. For a hook: its phase ({@code pre}, {@code mid}, {@code post}), failure policy as
   * written, the hook pod's name and run (null for tagImages), the tags it would make, and the deployer's message.
   */
  public record Step(Kind kind, String phase, String description, String policy, Outcome outcome, String message,
      long startNanos, long endNanos, String pod, PodRun run, List<String> tags) {}

  /** A rollout: the new deployment's name, the strategy, its steps in order, and the error that failed it. */
  public record Rollout(String deploymentConfig, String deployment, String strategy, List<Step> steps, String error) {
    public boolean succeeded() {
      return error == null;
    }
  }

  private final KubernetesClient client;
  private final Options options;
  private final EventRecorder events;

  public DeploymentConfigDeployer(KubernetesClient client, Options options) {
    this.client = client;
    this.options = options;
    this.events = new EventRecorder(client, null);
  }

  /**
   * The hooks the next rollout of a DeploymentConfig runs, in order: its strategy's own, and on a Rolling first
   * rollout (no {@code status.latestVersion}) also recreateParams' pre, mid and post between them, as the Recreate
   * strategy it hands that rollout to runs them.
   */
  public static List<DcHook> hooksOnRollout(Resource dc) {
    String strategy = DcHook.strategyType(dc);
    if (!"Recreate".equals(strategy) && !"Rolling".equals(strategy)) {
      return List.of();
    }
    Map<DcPhase, DcHook> own = hooks(dc, strategy.equals("Recreate") ? "recreateParams" : "rollingParams");
    List<DcHook> order = new ArrayList<>();
    Optional.ofNullable(own.get(DcPhase.PRE)).ifPresent(order::add);
    if (strategy.equals("Recreate")) {
      Optional.ofNullable(own.get(DcPhase.MID)).ifPresent(order::add);
    } else if (version(dc) == 1) {
      order.addAll(hooks(dc, "recreateParams").values());
    }
    Optional.ofNullable(own.get(DcPhase.POST)).ifPresent(order::add);
    return order;
  }

  // The hooks of one params block by phase; rollingParams has no mid.
  private static Map<DcPhase, DcHook> hooks(Resource dc, String params) {
    Map<DcPhase, DcHook> hooks = new EnumMap<>(DcPhase.class);
    for (DcHook hook : DcHook.of(dc)) {
      if (hook.form() == DcHook.Form.PARAMS && hook.params().equals(params) && hook.hook() != null
          && !(params.equals("rollingParams") && hook.phase() == DcPhase.MID)) {
        hooks.put(hook.phase(), hook);
      }
    }
    return hooks;
  }

  /** The version the next rollout makes: one more than {@code status.latestVersion}. */
  private static long version(Resource dc) {
    YMap status = dc.root().map("status");
    return number(status == null ? null : status.scalar("latestVersion"), 0) + 1;
  }

  /** The rollout of one DeploymentConfig's next version, as its strategy runs it. */
  public Rollout deploy(Resource dc) {
    return new RolloutRun(dc).run();
  }

  /** One rollout in progress. */
  private final class RolloutRun {
    final Resource dc;
    final String name;
    final String namespace;
    final String strategy;
    final String deployment;
    final String previous;
    final long replicas;
    final long started = System.nanoTime();
    final List<Step> steps = new ArrayList<>();
    final GenericKubernetesResource object;

    RolloutRun(Resource dc) {
      this.dc = dc;
      this.name = dc.name();
      // A run keeps to its own namespace, whatever the manifest names.
      this.namespace = options.namespace();
      this.strategy = DcHook.strategyType(dc);
      long version = version(dc);
      this.deployment = name + "-" + version;
      this.previous = version > 1 ? name + "-" + (version - 1) : null;
      YMap spec = dc.root().map("spec");
      this.replicas = number(spec == null ? null : spec.scalar("replicas"), 1);
      this.object = new GenericKubernetesResourceBuilder().withApiVersion("apps.openshift.io/v1")
          .withKind("DeploymentConfig").withNewMetadata().withName(name).withNamespace(namespace).endMetadata().build();
    }

    Rollout run() {
      if (!"Recreate".equals(strategy) && !"Rolling".equals(strategy)) {
        return done("strategy " + strategy + " is not run: only Recreate and Rolling run lifecycle hooks");
      }
      Map<DcPhase, DcHook> own = hooks(dc, strategy.equals("Recreate") ? "recreateParams" : "rollingParams");
      String error = hook(own.get(DcPhase.PRE));
      if (error == null && strategy.equals("Recreate")) {
        error = recreate(own);
      } else if (error == null && previous == null) {
        // rolling.go Deploy: with no earlier deployment to roll from, the Rolling strategy hands the rollout to the
        // Recreate strategy's DeployWithAcceptor, which runs recreateParams' own pre, mid and post (HL311).
        record(Kind.ROLLOUT, "first rollout: the Rolling strategy hands it to the Recreate strategy, which runs "
            + "recreateParams' hooks");
        Map<DcPhase, DcHook> recreate = hooks(dc, "recreateParams");
        error = hook(recreate.get(DcPhase.PRE));
        if (error == null) {
          error = recreate(recreate);
        }
        if (error == null) {
          error = hook(recreate.get(DcPhase.POST));
        }
      } else if (error == null) {
        record(Kind.ROLLOUT, "rolling update from " + previous + " to " + deployment + " with " + replicas
            + " replicas");
      }
      if (error == null) {
        error = hook(own.get(DcPhase.POST));
      }
      if (error != null) {
        record(Kind.CONTROLLER, previous == null
            ? "rollout failed: the DeploymentConfig controller scales " + deployment
                + " to 0; with no earlier complete deployment nothing serves"
            : "rollout failed: the DeploymentConfig controller scales " + deployment + " to 0 and " + previous
                + " (if complete) back to " + replicas);
      }
      return done(error);
    }

    /** What the Recreate strategy does between its pre and post hooks: scale down, mid, scale up. */
    private String recreate(Map<DcPhase, DcHook> hooks) {
      if (previous != null) {
        record(Kind.SCALE, "scale " + previous + " down to 0 and wait for its pods to end");
      }
      String error = hook(hooks.get(DcPhase.MID));
      if (error == null) {
        record(Kind.SCALE, previous == null ? "scale " + deployment + " up to " + replicas
            : "scale " + deployment + " to 1, check it is available, then to " + replicas);
      }
      return error;
    }

    /** The rollout's activeDeadlineSeconds, capped by the options. */
    private long deadline() {
      long deadline = DcHook.activeDeadline(dc).orElse(DcHook.DEFAULT_ACTIVE_DEADLINE_SECONDS);
      return options.deadlineCapSeconds() == null ? deadline : Math.min(deadline, options.deadlineCapSeconds());
    }

    private Rollout done(String error) {
      return new Rollout(name, deployment, strategy, List.copyOf(steps), error);
    }

    private void record(Kind kind, String description) {
      long now = options.clock().now();
      steps.add(new Step(kind, null, description, null, Outcome.RECORDED, "", now, now, null, null, List.of()));
      progress(description);
    }

    /** Runs a hook as {@code hookExecutor.Execute} does; the strategy's error, or null to go on. */
    private String hook(DcHook hook) {
      if (hook == null) {
        return null;
      }
      String phase = hook.phase().key();
      String policy = hook.policy();
      long start = options.clock().now();
      List<String> tags = new ArrayList<>();
      String pod = null;
      PodRun run = null;
      String failure;
      if (hook.execNewPod() != null) {
        pod = deployment + "-hook-" + phase;
        List<String> command = new ArrayList<>();
        JsonTree.of(hook.execNewPod()).path("command").forEach(c -> command.add(c.asText()));
        event(false, "Started", "Running " + phase + "-hook (\"" + String.join(" ", command) + "\") for rc "
            + namespace + "/" + deployment);
        progress(phase + " hook: pod " + pod + " (" + policy + ")");
        try {
          failure = runPod(hookPod(hook, pod, command), phase);
          Pod ended = client.pods().inNamespace(namespace).withName(pod).get();
          run = ended == null ? null : PodRun.of(ended, options.logs());
        } catch (IllegalArgumentException e) {
          failure = e.getMessage();
          pod = null;
        }
      } else {
        failure = tagImages(hook, tags);
        event(false, "Started", "Running " + phase + "-hook (TagImages) " + String.join(",", tags) + " for rc "
            + namespace + "/" + deployment);
      }
      String error = null;
      Outcome outcome = Outcome.SUCCEEDED;
      String message = "";
      if (failure == null) {
        event(false, "Completed", "The " + phase + "-hook for rc " + namespace + "/" + deployment
            + " completed successfully");
      } else if (hook.knownPolicy() == FailurePolicy.ABORT || hook.knownPolicy() == FailurePolicy.RETRY) {
        event(true, "Failed", "The " + phase + "-hook failed: " + failure + ", aborting rollout of " + namespace
            + "/" + deployment);
        message = "the " + phase + " hook failed: " + failure + ", aborting rollout of " + namespace + "/"
            + deployment;
        error = phase + " hook failed: " + message;
        outcome = Outcome.FAILED;
      } else if (hook.knownPolicy() == FailurePolicy.IGNORE) {
        event(true, "Failed", "The " + phase + "-hook failed: " + failure + " (ignore), rollout of " + namespace
            + "/" + deployment + " will continue");
        message = failure;
        outcome = Outcome.IGNORED;
      } else {
        // An unknown policy returns the error as it is, without an event: the rollout fails as under Abort.
        message = failure;
        error = phase + " hook failed: " + failure;
        outcome = Outcome.FAILED;
      }
      steps.add(new Step(Kind.HOOK, phase, hook.describe(), policy, outcome, message, start, options.clock().now(),
          pod, run, List.copyOf(tags)));
      progress("  " + outcome.name().toLowerCase() + (message.isEmpty() ? "" : ": " + message));
      return error;
    }

    /** {@code createHookPodManifest}: the hook pod built from the named container of the template. */
    private Pod hookPod(DcHook hook, String podName, List<String> command) {
      PodSpec template = convert(JsonTree.of(hook.podSpec()), PodSpec.class);
      JsonNode exec = JsonTree.of(hook.execNewPod());
      String containerName = exec.path("containerName").asText("");
      Container base = template.getContainers().stream()
          .filter(c -> c.getName().equals(containerName)
              || containerName.isEmpty() && template.getContainers().size() == 1)
          .findFirst().orElse(null);
      if (base == null) {
        throw new IllegalArgumentException("no container named '" + containerName + "' found in rc template");
      }
      Map<String, EnvVar> env = new LinkedHashMap<>();
      for (EnvVar var : list(base.getEnv())) {
        env.put(var.getName(), var);
      }
      for (JsonNode var : exec.path("env")) {
        env.put(var.path("name").asText(), convert(var, EnvVar.class));
      }
      List<EnvVar> merged = new ArrayList<>(env.values());
      merged.add(new EnvVar("OPENSHIFT_DEPLOYMENT_NAME", deployment, null));
      merged.add(new EnvVar("OPENSHIFT_DEPLOYMENT_NAMESPACE", namespace, null));
      List<String> wanted = new ArrayList<>();
      exec.path("volumes").forEach(v -> wanted.add(v.asText()));
      List<Volume> volumes = list(template.getVolumes()).stream().filter(v -> wanted.contains(v.getName())).toList();
      List<String> names = volumes.stream().map(Volume::getName).toList();
      List<VolumeMount> mounts = list(base.getVolumeMounts()).stream().filter(m -> names.contains(m.getName()))
          .toList();
      long elapsed = Duration.ofNanos(System.nanoTime() - started).toSeconds();
      long deadline = deadline() - elapsed;
      Map<String, String> labels =
          new LinkedHashMap<>(Map.of(POD_FOR, deployment, POD_TYPE, "hook-" + hook.phase().key()));
      Map<String, String> annotations = new LinkedHashMap<>(Map.of(DEPLOYMENT, deployment));
      YMap strategy = DcHook.strategy(dc);
      strings(strategy.map("labels")).forEach(labels::putIfAbsent);
      strings(strategy.map("annotations")).forEach(annotations::putIfAbsent);
      return new PodBuilder().withNewMetadata().withName(podName).withNamespace(namespace).withLabels(labels)
          .withAnnotations(annotations).endMetadata()
          .withNewSpec().addNewContainer().withName("lifecycle").withImage(base.getImage())
          .withImagePullPolicy(base.getImagePullPolicy()).withCommand(command).withWorkingDir(base.getWorkingDir())
          .withEnv(merged).withResources(base.getResources()).withVolumeMounts(mounts)
          .withSecurityContext(base.getSecurityContext()).endContainer()
          .withSecurityContext(template.getSecurityContext()).withVolumes(volumes)
          .withActiveDeadlineSeconds(deadline).withNodeSelector(template.getNodeSelector())
          .withRestartPolicy(hook.knownPolicy() == FailurePolicy.RETRY ? "OnFailure" : "Never")
          .withImagePullSecrets(template.getImagePullSecrets()).withTerminationGracePeriodSeconds(HOOK_GRACE_SECONDS)
          .endSpec().build();
    }

    /**
     * Creates the hook pod (an existing one of that name is awaited instead, as the deployer does) and waits
     * until it ends; the failure message, or null when it succeeded.
     */
    private String runPod(Pod pod, String phase) {
      String podName = pod.getMetadata().getName();
      try {
        client.pods().inNamespace(namespace).resource(pod).create();
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409) {
          return "couldn't create lifecycle pod for " + deployment + ": " + e.getMessage();
        }
      }
      // The kubelet ends the pod at its activeDeadlineSeconds; the wait allows for its grace period.
      long limit = System.nanoTime() + Duration.ofSeconds(pod.getSpec().getActiveDeadlineSeconds()
          + HOOK_GRACE_SECONDS + 30).toNanos();
      while (System.nanoTime() < limit) {
        Pod current = client.pods().inNamespace(namespace).withName(podName).get();
        if (current == null) {
          return phase + ": pod/" + podName + "[" + namespace + "] unexpectedly deleted";
        }
        String podPhase = current.getStatus() == null ? null : current.getStatus().getPhase();
        if ("Succeeded".equals(podPhase)) {
          return null;
        }
        if ("Failed".equals(podPhase)) {
          String message = current.getStatus().getMessage();
          return message == null || message.isEmpty() ? "pod " + podName + " failed" : message;
        }
        try {
          Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return "interrupted";
        }
      }
      return "pod " + podName + " did not end by its deadline";
    }

    /** What tagImages would tag; the deployer's error for a container it cannot find, or null. */
    private String tagImages(DcHook hook, List<String> tags) {
      PodSpec template = convert(JsonTree.of(hook.podSpec()), PodSpec.class);
      List<String> errors = new ArrayList<>();
      for (JsonNode tag : JsonTree.of(hook.tagImages())) {
        String container = tag.path("containerName").asText("");
        Optional<String> image = template.getContainers().stream().filter(c -> c.getName().equals(container))
            .map(Container::getImage).findFirst();
        if (image.isEmpty()) {
          errors.add("unable to find image for container \"" + container + "\", container could not be found");
          continue;
        }
        String to = tag.path("to").path("namespace").asText(namespace);
        tags.add("image \"" + image.get() + "\" as \"" + to + "/" + tag.path("to").path("name").asText() + "\"");
      }
      return errors.isEmpty() ? null : String.join(", ", errors);
    }

    private void event(boolean warning, String reason, String message) {
      events.record(object, null, deployment + "-deploy", warning, reason, message);
    }
  }

  private static long number(YScalar scalar, long otherwise) {
    return scalar == null ? otherwise : scalar.asLong().orElse(otherwise);
  }

  private static Map<String, String> strings(YMap map) {
    Map<String, String> out = new LinkedHashMap<>();
    if (map != null) {
      map.effectiveEntries().forEach(e -> out.put(e.key().value(), e.value() instanceof YScalar s ? s.value() : ""));
    }
    return out;
  }

  private static <T> List<T> list(List<T> value) {
    return value == null ? List.of() : value;
  }

  private static <T> T convert(JsonNode json, Class<T> type) {
    return Serialization.unmarshal(Serialization.asJson(json), type);
  }

  private void progress(String line) {
    if (options.progress() != null) {
      options.progress().accept(line);
    }
  }
}
