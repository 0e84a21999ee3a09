package io.hooklens.run.helm;

import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.helm.DeletePolicy;
import io.hooklens.core.model.helm.HelmEvent;
import io.hooklens.core.model.helm.HelmOperation;
import io.hooklens.core.model.helm.HookPlan;
import io.hooklens.core.model.helm.OutputLogPolicy;
import io.hooklens.run.kube.Manifests;
import io.hooklens.run.kube.PodLogs;
import io.hooklens.run.kube.PodRun;
import io.hooklens.run.node.Timeline;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Runs a release's hooks as Helm 3.2 to 4.x does, through the API only: the hooks of one event in
 * {@link HookPlan}'s order (weight, then name), one at a time; for each, {@code before-hook-creation} deletes
 * an object of the same identity and waits until it is gone, the hook is created, and Helm waits for a Job
 * (until Complete or Failed) or a Pod (until Succeeded or Failed), every other kind being done once created,
 * each with the full timeout. The first failure ends the event: that hook is deleted if it has
 * {@code hook-failed}, the earlier ones if they have {@code hook-succeeded}. When all succeed, those with
 * {@code hook-succeeded} are deleted, last first. Objects are deleted with background propagation and awaited
 * until gone; CustomResourceDefinitions never are.
 */
public final class HelmHooks {
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(5);
  private static final long POLL_MILLIS = 20;

  /**
   * How to run. {@code clock} stamps every time in the results (the node agent's timeline when embedded, so hook
   * and container times line up); {@code logs} reads hook output; {@code progress} hears one line per step.
   */
  public record Options(String namespace, Duration timeout, PodLogs logs, Timeline clock, Consumer<String> progress) {
    public Options withTimeout(Duration value) {
      return new Options(namespace, value, logs, clock, progress);
    }
  }

  /** How a hook ended. */
  public enum Outcome { SUCCEEDED, FAILED, TIMED_OUT, NOT_CREATED }

  /** A deletion by a policy, and when it was asked for. */
  public record Deletion(DeletePolicy policy, long nanos) {}

  /**
   * One hook as it ran: its place and annotations, whether {@code before-hook-creation} replaced an existing
   * object, how it ended and Helm's message, created and finished times (on the options' clock), the pods that
   * ran for it, the deletion after it (null when none), and whether Helm prints its output
   * ({@code helm.sh/hook-output-log-policy}).
   */
  public record HookResult(int position, String kind, String name, long weight, List<DeletePolicy> deletePolicies,
      boolean defaultPolicy, boolean awaited, boolean replacedExisting, Outcome outcome, String message,
      long createdNanos, long finishedNanos, List<PodRun> pods, Deletion deletion, boolean outputLogged) {}

  /** One event: the hooks that ran, in order (a failed one last); the error that failed it, or null. */
  public record PhaseResult(String event, List<HookResult> hooks, String error, long startNanos, long endNanos) {
    public boolean succeeded() {
      return error == null;
    }
  }

  /**
   * What the operation did to the release's own objects ({@code Kind/name} each): created or updated, deleted, or
   * kept by {@code helm.sh/resource-policy: keep}; the error that stopped it, or null.
   */
  public record ReleaseResult(String action, List<String> objects, List<String> kept, String error, long startNanos,
      long endNanos) {}

  /** A whole operation: its events in order, the release step between them (null for test or when not reached). */
  public record OperationResult(HelmOperation operation, List<PhaseResult> phases, ReleaseResult release) {
    public boolean succeeded() {
      return phases.stream().allMatch(PhaseResult::succeeded) && (release == null || release.error() == null);
    }
  }

  private final KubernetesClient client;
  private final Options options;

  public HelmHooks(KubernetesClient client, Options options) {
    this.client = client;
    this.options = options;
  }

  /** Runs an operation: its pre event, its release step and its post event, stopping at the first failure. */
  public OperationResult run(HookDocument doc, HelmOperation operation) {
    List<PhaseResult> phases = new ArrayList<>();
    if (operation.pre() != null) {
      PhaseResult pre = runEvent(doc, operation.pre().annotation());
      phases.add(pre);
      if (!pre.succeeded()) {
        return new OperationResult(operation, List.copyOf(phases), null);
      }
    }
    ReleaseResult release = operation == HelmOperation.TEST ? null : release(doc, operation);
    if (release != null && release.error() != null) {
      return new OperationResult(operation, List.copyOf(phases), release);
    }
    phases.add(runEvent(doc, operation.post().annotation()));
    return new OperationResult(operation, List.copyOf(phases), release);
  }

  /** A hook while its event runs. */
  private static final class Run {
    final int position;
    final HookPlan.Step step;
    final HasMetadata object;
    boolean replacedExisting;
    Outcome outcome;
    String message = "";
    long created;
    long finished;
    List<PodRun> pods = List.of();
    Deletion deletion;
    boolean outputLogged;

    Run(int position, HookPlan.Step step, HasMetadata object) {
      this.position = position;
      this.step = step;
      this.object = object;
    }

    HookResult result() {
      return new HookResult(position, step.kind(), step.name(), step.weight(), step.deletePolicies(),
          step.defaultPolicy(), step.awaited(), replacedExisting, outcome, message, created, finished, pods, deletion,
          outputLogged);
    }
  }

  /** Runs the hooks of one event ({@code test-success} is {@code test}); none is a success. */
  public PhaseResult runEvent(HookDocument doc, String event) {
    String name = HelmEvent.TEST_SUCCESS.equals(event) ? HelmEvent.TEST.annotation() : event;
    List<HookPlan.Step> steps = HookPlan.of(doc).stream().filter(e -> e.name().equals(name)).findFirst()
        .map(HookPlan.Event::steps).orElseThrow(() -> new IllegalArgumentException("not a Helm hook event: " + event));
    long start = options.clock().now();
    List<Run> runs = new ArrayList<>();
    String error = null;
    for (HookPlan.Step step : steps) {
      Run run = new Run(runs.size() + 1, step, Manifests.toObject(step.resource(), options.namespace()));
      runs.add(run);
      progress(name + ": " + Manifests.describe(run.object) + " (weight " + step.weight() + ")");
      error = execute(name, run);
      if (error != null) {
        if (run.outcome != Outcome.NOT_CREATED) {
          deleteByPolicy(run, DeletePolicy.HOOK_FAILED);
        }
        for (Run earlier : runs.subList(0, runs.size() - 1)) {
          deleteByPolicy(earlier, DeletePolicy.HOOK_SUCCEEDED);
        }
        break;
      }
    }
    if (error == null) {
      for (int i = runs.size() - 1; i >= 0; i--) {
        deleteByPolicy(runs.get(i), DeletePolicy.HOOK_SUCCEEDED);
      }
    }
    return new PhaseResult(name, runs.stream().map(Run::result).toList(), error, start, options.clock().now());
  }

  /** Creates one hook and waits for it; Helm's error message, or null when it succeeded. */
  private String execute(String event, Run run) {
    if (run.step.deletePolicies().contains(DeletePolicy.BEFORE_HOOK_CREATION)) {
      run.replacedExisting = delete(run.object);
    }
    run.created = options.clock().now();
    try {
      client.resource(run.object).inNamespace(namespace(run.object)).create();
    } catch (KubernetesClientException e) {
      run.finished = options.clock().now();
      run.outcome = Outcome.NOT_CREATED;
      run.message = "warning: Hook " + event + " " + Manifests.describe(run.object) + " failed: " + e.getMessage();
      progress("  " + run.message);
      return run.message;
    }
    awaitHook(run);
    run.finished = options.clock().now();
    run.pods = pods(run.object);
    boolean failed = run.outcome != Outcome.SUCCEEDED;
    run.outputLogged = run.step.outputLogPolicies().contains(failed ? OutputLogPolicy.HOOK_FAILED
        : OutputLogPolicy.HOOK_SUCCEEDED);
    progress("  " + run.outcome.name().toLowerCase().replace('_', ' ')
        + (run.message.isEmpty() ? "" : ": " + run.message));
    return failed ? run.message : null;
  }

  // Helm 3's watch: a Job until Complete or Failed, a Pod until Succeeded or Failed, anything else at once.
  private void awaitHook(Run run) {
    String namespace = namespace(run.object);
    String name = run.object.getMetadata().getName();
    Supplier<Outcome> state;
    if (run.object instanceof Job) {
      state = () -> {
        Job job = client.batch().v1().jobs().inNamespace(namespace).withName(name).get();
        if (job == null) {
          run.message = "deleted while Helm waited; Helm 3 counts that as done";
          return Outcome.SUCCEEDED;
        }
        List<JobCondition> conditions = job.getStatus() == null || job.getStatus().getConditions() == null
            ? List.of() : job.getStatus().getConditions();
        for (JobCondition c : conditions) {
          if ("True".equals(c.getStatus()) && "Complete".equals(c.getType())) {
            return Outcome.SUCCEEDED;
          }
          if ("True".equals(c.getStatus()) && "Failed".equals(c.getType())) {
            run.message = "job " + name + " failed: " + c.getReason();
            return Outcome.FAILED;
          }
        }
        return null;
      };
    } else if (run.object instanceof Pod) {
      state = () -> {
        Pod pod = client.pods().inNamespace(namespace).withName(name).get();
        if (pod == null) {
          run.message = "deleted while Helm waited; Helm 3 counts that as done";
          return Outcome.SUCCEEDED;
        }
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        if ("Succeeded".equals(phase)) {
          return Outcome.SUCCEEDED;
        }
        if ("Failed".equals(phase)) {
          run.message = "pod " + name + " failed";
          return Outcome.FAILED;
        }
        return null;
      };
    } else {
      run.outcome = Outcome.SUCCEEDED;
      return;
    }
    Outcome outcome = poll(state, options.timeout());
    if (outcome == null) {
      run.message = "timed out waiting for the condition";
      outcome = Outcome.TIMED_OUT;
    }
    run.outcome = outcome;
  }

  /** The pods that ran for a hook, with their output: the Pod itself, or the Job's pods. */
  private List<PodRun> pods(HasMetadata object) {
    String namespace = namespace(object);
    List<Pod> pods;
    if (object instanceof Pod) {
      Pod pod = client.pods().inNamespace(namespace).withName(object.getMetadata().getName()).get();
      pods = pod == null ? List.of() : List.of(pod);
    } else if (object instanceof Job) {
      pods = client.pods().inNamespace(namespace).withLabel("job-name", object.getMetadata().getName()).list()
          .getItems();
    } else {
      pods = List.of();
    }
    return pods.stream().map(p -> PodRun.of(p, options.logs())).toList();
  }

  private void deleteByPolicy(Run run, DeletePolicy policy) {
    if (run.step.deletePolicies().contains(policy) && !"CustomResourceDefinition".equals(run.step.kind())) {
      run.deletion = new Deletion(policy, options.clock().now());
      progress("  " + policy.annotation() + ": deleting " + Manifests.describe(run.object));
      delete(run.object);
    }
  }

  /** Deletes an object as Helm does (background propagation) and waits until it is gone; whether it existed. */
  private boolean delete(HasMetadata object) {
    var resource = client.resource(object).inNamespace(namespace(object));
    boolean existed = !resource.withPropagationPolicy(DeletionPropagation.BACKGROUND).delete().isEmpty();
    if (existed && poll(() -> resource.get() == null ? true : null, options.timeout()) == null) {
      progress("  " + Manifests.describe(object) + " was not deleted within " + options.timeout());
    }
    return existed;
  }

  /** The release step of an operation: the release's own objects, created, updated or deleted. */
  private ReleaseResult release(HookDocument doc, HelmOperation operation) {
    long start = options.clock().now();
    List<Resource> resources = new ArrayList<>(HookPlan.releaseResources(doc));
    List<String> done = new ArrayList<>();
    List<String> kept = new ArrayList<>();
    String action = operation == HelmOperation.INSTALL ? "create"
        : operation == HelmOperation.UNINSTALL ? "delete" : "apply";
    try {
      if (operation == HelmOperation.UNINSTALL) {
        // Helm uninstalls in the reverse of its install order.
        Collections.reverse(resources);
        for (Resource r : resources) {
          HasMetadata object = Manifests.toObject(r, options.namespace());
          if (HookPlan.kept(r)) {
            kept.add(Manifests.describe(object));
          } else {
            delete(object);
            done.add(Manifests.describe(object));
          }
        }
      } else {
        for (Resource r : resources) {
          HasMetadata object = Manifests.toObject(r, options.namespace());
          var resource = client.resource(object).inNamespace(namespace(object));
          if (operation == HelmOperation.INSTALL) {
            resource.create();
          } else {
            resource.createOr(NonDeletingOperation::update);
          }
          done.add(Manifests.describe(object));
        }
      }
      progress("release: " + action + " " + String.join(", ", done));
      return new ReleaseResult(action, List.copyOf(done), List.copyOf(kept), null, start, options.clock().now());
    } catch (KubernetesClientException e) {
      progress("release: " + action + " failed: " + e.getMessage());
      return new ReleaseResult(action, List.copyOf(done), List.copyOf(kept), e.getMessage(), start,
          options.clock().now());
    }
  }

  private String namespace(HasMetadata object) {
    return object.getMetadata().getNamespace() == null ? options.namespace() : object.getMetadata().getNamespace();
  }

  private static <T> T poll(Supplier<T> value, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      T result = value.get();
      if (result != null || System.nanoTime() > deadline) {
        return result;
      }
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return null;
      }
    }
  }

  private void progress(String line) {
    if (options.progress() != null) {
      options.progress().accept(line);
    }
  }
}
