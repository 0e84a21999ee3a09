package io.hooklens.run;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.helm.HelmEvent;
import io.hooklens.core.model.helm.HelmOperation;
import io.hooklens.core.model.helm.HookPlan;
import io.hooklens.core.model.openshift.DcHook;
import io.hooklens.core.yaml.JsonTree;
import io.hooklens.core.yaml.Range;
import io.hooklens.run.kube.Manifests;
import io.hooklens.run.openshift.DeploymentConfigDeployer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What {@code hooklens run --event} or {@code --rollout} will do, before it does anything: a Helm operation's
 * or event's hooks in Helm's order, or a DeploymentConfig rollout's hooks, with what each hook pod will run. A
 * plan with problems must not run.
 */
public final class SequencePlan {
  /** What runs. */
  public enum Kind { HELM, ROLLOUT }

  private final Kind kind;
  private final String source;
  private final HookDocument doc;
  private final String name;
  private final Resource deploymentConfig;
  private final Duration timeout;
  private final List<String> description;
  private final List<String> problems;
  private final Function<Range, Origin> origins;

  private SequencePlan(Kind kind, HookDocument doc, String name, Resource deploymentConfig, Duration timeout,
      List<String> description, List<String> problems, Function<Range, Origin> origins) {
    this.kind = kind;
    this.source = doc.name();
    this.doc = doc;
    this.name = name;
    this.deploymentConfig = deploymentConfig;
    this.timeout = timeout;
    this.description = List.copyOf(description);
    this.problems = List.copyOf(problems);
    this.origins = origins;
  }

  /**
   * Plans a Helm operation ({@link HelmOperation}) or one event ({@code pre-install}, ...) of a rendered manifest.
   *
   * @param timeout how long Helm waits for each hook ({@code --timeout})
   * @param images the images the embedded node has, whose entrypoints stand in for a missing command
   * @param embedded whether it runs on the embedded node, which needs to know what each container runs
   * @param origins where a rendered place comes from, for a chart; null for a plain file
   */
  public static SequencePlan helm(HookDocument doc, String event, Duration timeout, Images images, boolean embedded,
      Function<Range, Origin> origins) {
    List<String> problems = new ArrayList<>();
    List<String> lines = new ArrayList<>();
    if (doc.parsed().templated()) {
      problems.add(doc.name() + " is a chart template: its values are known only once Helm renders it; run the chart "
          + "directory instead");
      return new SequencePlan(Kind.HELM, doc, event, null, timeout, lines, problems, origins);
    }
    List<String> events = events(event);
    if (events.isEmpty()) {
      problems.add("--event " + event + " is neither a Helm operation (" + String.join(", ", HelmOperation.NAMES)
          + ") nor a hook event (" + String.join(", ", HelmEvent.NAMES) + ")");
      return new SequencePlan(Kind.HELM, doc, event, null, timeout, lines, problems, origins);
    }
    Map<String, List<HookPlan.Step>> byEvent = new LinkedHashMap<>();
    HookPlan.of(doc).forEach(e -> byEvent.put(e.name(), e.steps()));
    HelmOperation operation = HelmOperation.parse(event);
    int hooks = 0;
    for (int i = 0; i < events.size(); i++) {
      String e = events.get(i);
      List<HookPlan.Step> steps = byEvent.getOrDefault(e, List.of());
      hooks += steps.size();
      lines.add(e + ": " + (steps.isEmpty() ? "no hooks" : steps.size() + (steps.size() == 1 ? " hook" : " hooks")
          + ", one at a time"));
      int position = 1;
      for (HookPlan.Step step : steps) {
        String policies = step.deletePolicies().isEmpty() ? "none" : String.join(",", step.deletePolicyNames())
            + (step.defaultPolicy() ? " (default)" : "");
        lines.add("  " + position++ + ". " + step.kind() + "/" + step.name() + " (weight " + step.weight()
            + ", delete policies " + policies + ")");
        containers(step.resource(), images, embedded, lines, problems);
      }
      if (operation != null && i == 0 && operation != HelmOperation.TEST) {
        List<Resource> release = HookPlan.releaseResources(doc);
        String verb = operation == HelmOperation.UNINSTALL ? "deletes"
            : operation == HelmOperation.INSTALL ? "creates" : "applies";
        lines.add("release: " + verb + " " + (release.isEmpty() ? "nothing" : release.stream()
            .map(r -> r.kind() + "/" + r.name()).reduce((a, b) -> a + ", " + b).orElse(""))
            + (embedded && !release.isEmpty() ? " (stored in the API; their pods do not run)" : ""));
      }
    }
    if (hooks == 0) {
      String known = String.join(", ", byEvent.entrySet().stream().filter(e -> !e.getValue().isEmpty())
          .map(e -> e.getKey() + " (" + e.getValue().size() + ")").toList());
      problems.add("no hooks for " + String.join(" or ", events) + " in " + doc.name()
          + (known.isEmpty() ? "; it has no Helm hooks at all" : "; events with hooks: " + known));
    }
    return new SequencePlan(Kind.HELM, doc, event, null, timeout, lines, problems, origins);
  }

  /** The events of an operation, or the one event; empty when it is neither. */
  static List<String> events(String event) {
    HelmOperation operation = HelmOperation.parse(event);
    if (operation != null) {
      return operation.events().stream().map(HelmEvent::annotation).toList();
    }
    HelmEvent one = HelmEvent.parse(event);
    return one == null ? List.of() : List.of(one.annotation());
  }

  /** The operation to run, or null for a single event. */
  HelmOperation operation() {
    return HelmOperation.parse(name);
  }

  /** The containers a hook object's pods run, for consent. */
  private static void containers(Resource resource, Images images, boolean embedded, List<String> lines,
      List<String> problems) {
    HasMetadata object;
    try {
      object = Manifests.toObject(resource, "default");
    } catch (RuntimeException e) {
      problems.add(resource.kind() + "/" + resource.name() + " cannot be read as an object: " + firstLine(e));
      return;
    }
    io.fabric8.kubernetes.api.model.PodSpec spec = object instanceof Pod pod ? pod.getSpec()
        : object instanceof Job job && job.getSpec() != null && job.getSpec().getTemplate() != null
            ? job.getSpec().getTemplate().getSpec() : null;
    if (spec == null) {
      lines.add("     created only: Helm runs nothing for a " + resource.kind());
      return;
    }
    List<Container> all = new ArrayList<>(spec.getInitContainers() == null ? List.of() : spec.getInitContainers());
    all.addAll(spec.getContainers() == null ? List.of() : spec.getContainers());
    for (Container c : all) {
      boolean init = spec.getInitContainers() != null && spec.getInitContainers().contains(c);
      List<String> argv = (embedded ? images : Images.NONE).argv(c.getImage(), c.getCommand(), c.getArgs());
      if (argv.isEmpty() && embedded) {
        problems.add(RunPlan.noCommand(resource.kind() + "/" + resource.name(), c));
      }
      String runs = argv.isEmpty() ? "the entrypoint of " + c.getImage() : RunPlan.shell(argv);
      String inside = embedded && images.has(c.getImage()) ? "  (inside " + images.root(c.getImage()) + ")" : "";
      lines.add("     " + (init ? "init container" : "container") + " \"" + c.getName() + "\" runs: " + runs + inside);
    }
  }

  /**
   * Plans the next rollout of a DeploymentConfig: its pre, mid and post hooks as its strategy runs them.
   *
   * @param resource {@code DeploymentConfig/NAME} or {@code NAME}; null when the file has one
   * @param deadlineCap the most the rollout's {@code activeDeadlineSeconds} may be here
   */
  public static SequencePlan rollout(HookDocument doc, String resource, Duration deadlineCap) {
    List<String> problems = new ArrayList<>();
    List<String> lines = new ArrayList<>();
    List<Resource> dcs = doc.resources().stream().filter(DcHook::isDeploymentConfig)
        .filter(r -> resource == null || resource.equals(r.name()) || resource.equals("DeploymentConfig/" + r.name()))
        .toList();
    String all = String.join(", ", doc.resources().stream().filter(DcHook::isDeploymentConfig)
        .map(r -> "DeploymentConfig/" + r.name()).toList());
    if (doc.parsed().templated()) {
      problems.add(doc.name() + " is a chart template: its values are known only once Helm renders it; run the chart "
          + "directory instead");
    } else if (dcs.isEmpty()) {
      problems.add(all.isEmpty() ? "no DeploymentConfig in " + doc.name()
          : "no DeploymentConfig " + resource + " in " + doc.name() + "; there are: " + all);
    } else if (dcs.size() > 1) {
      problems.add(doc.name() + " has several DeploymentConfigs (" + all + "); choose one with --resource");
    }
    if (!problems.isEmpty()) {
      return new SequencePlan(Kind.ROLLOUT, doc, resource, null, deadlineCap, lines, problems, null);
    }
    Resource dc = dcs.get(0);
    String strategy = DcHook.strategyType(dc);
    long deadline = DcHook.activeDeadline(dc).orElse(DcHook.DEFAULT_ACTIVE_DEADLINE_SECONDS);
    lines.add("DeploymentConfig/" + dc.name() + ", strategy " + strategy + ", activeDeadlineSeconds " + deadline
        + (deadline > deadlineCap.toSeconds() ? " (here at most " + deadlineCap.toSeconds() + ", by --timeout)" : ""));
    List<DcHook> running = DeploymentConfigDeployer.hooksOnRollout(dc);
    for (DcHook hook : running) {
      String policy = hook.policy() == null ? "no failurePolicy" : hook.policy();
      // A Rolling strategy's first rollout runs the Recreate strategy, with recreateParams' hooks, once.
      String first = "Rolling".equals(strategy) && "recreateParams".equals(hook.params())
          ? " (recreateParams, on this first rollout only)" : "";
      if (hook.execNewPod() != null) {
        List<String> command = new ArrayList<>();
        JsonTree.of(hook.execNewPod()).path("command").forEach(c -> command.add(c.asText()));
        String container = JsonTree.of(hook.execNewPod()).path("containerName").asText("");
        lines.add("  " + hook.phase() + first + " (" + policy + "): a hook pod from container \"" + container
            + "\" runs: " + RunPlan.shell(command));
      } else {
        lines.add("  " + hook.phase() + first + " (" + policy + "): tagImages, recorded only (there is no image "
            + "registry)");
      }
    }
    for (DcHook hook : DcHook.of(dc)) {
      if (running.stream().noneMatch(h -> h.key() != null && hook.key() != null
          && h.key().range().equals(hook.key().range()))) {
        lines.add("  " + hook.describe() + ": does not run with strategy " + strategy);
      }
    }
    boolean runs = !running.isEmpty();
    if (!runs) {
      problems.add("DeploymentConfig/" + dc.name() + " has no hooks that run on a rollout with strategy " + strategy);
    }
    return new SequencePlan(Kind.ROLLOUT, doc, "DeploymentConfig/" + dc.name(), dc, deadlineCap, lines, problems,
        null);
  }

  private static String firstLine(RuntimeException e) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    int nl = message.indexOf('\n');
    return nl < 0 ? message : message.substring(0, nl);
  }

  public Kind kind() {
    return kind;
  }

  /** The file or chart the plan was made from, as its name was given. */
  public String source() {
    return source;
  }

  /** The operation or event, or {@code DeploymentConfig/NAME}. */
  public String name() {
    return name;
  }

  /** What will run, one line each, for consent. */
  public List<String> description() {
    return description;
  }

  /** Why the plan cannot run; empty when it can. */
  public List<String> problems() {
    return problems;
  }

  HookDocument doc() {
    return doc;
  }

  Resource deploymentConfig() {
    return deploymentConfig;
  }

  /** How long Helm waits for each hook; for a rollout, the cap on its deadline. */
  Duration timeout() {
    return timeout;
  }

  /** Where a rendered place comes from, or null for the run's own file. */
  Origin origin(Range range) {
    return origins == null ? null : origins.apply(range);
  }
}
