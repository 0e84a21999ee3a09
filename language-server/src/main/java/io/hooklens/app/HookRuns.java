package io.hooklens.app;

import io.hooklens.core.engine.Finding;
import io.hooklens.core.engine.Linter;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.text.Printable;
import io.hooklens.core.yaml.Range;
import io.hooklens.run.ContainerPlan;
import io.hooklens.run.Images;
import io.hooklens.run.Origin;
import io.hooklens.run.PlannedHook;
import io.hooklens.run.PodPlan;
import io.hooklens.run.RunException;
import io.hooklens.run.RunPlan;
import io.hooklens.run.Runner;
import io.hooklens.run.Selection;
import io.hooklens.run.SequencePlan;
import io.hooklens.run.report.RunReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Running hooks, for {@code hooklens run} and the editor's lenses alike: the options checked, the plan built (of
 * manifests from {@link HookTargets}), the plan's text put to the user, the run on the embedded cluster or a
 * kubeconfig context, and its report. A face parses its arguments, asks for consent its own
 * way ({@link Face}) and shows the {@link Outcome}. One run per instance at a time.
 */
public final class HookRuns {
  /** The question every face asks, after the plan's text. */
  public static final String QUESTION = "Run these commands on this machine?";

  /** What to run: a pod's container hooks, a Helm operation or event, a DeploymentConfig's next rollout. */
  public enum Kind { CONTAINER, HELM, ROLLOUT }

  /**
   * What the user asked to run. Only the command line can combine the options, so refusals name them as it spells
   * them.
   *
   * @param selection for container hooks, which ones; its hook null when not chosen (all of them)
   * @param event for Helm, the operation or event
   * @param timeout for Helm, how long it waits for each hook; for a rollout, the cap on its deadline
   * @param context a kubeconfig context to run on, or null for the embedded cluster
   * @param kubeconfig the kubeconfig for the context, or null for the usual one
   * @param imageRoots unpacked image filesystems by image, for the embedded cluster
   * @param imageArchives saved images by image, for the embedded cluster
   * @param unsafeNoSandbox run unprotected where bubblewrap is missing, rather than refuse
   * @param envtest on a real control plane of the run's own rather than the embedded mock (with no context)
   * @param kubeAssets the control plane's binaries, or null to look for them
   */
  public record Options(Kind kind, Selection selection, String event, Duration timeout, long startTimeoutSeconds,
      String context, Path kubeconfig, Map<String, Path> imageRoots, Map<String, Path> imageArchives,
      boolean unsafeNoSandbox, boolean envtest, Path kubeAssets) {
    /** Sandboxed on the embedded cluster, without images, with Helm's timeout and 30 s to start. */
    public static Options embedded(Kind kind, Selection selection, String event) {
      return new Options(kind, selection, event, Duration.ofMinutes(5), 30, null, null, Map.of(), Map.of(), false,
          false, null);
    }
  }

  /**
   * The manifests to run.
   *
   * @param findings their static findings, asked for only once the user agreed
   * @param origins for a chart, the way from a place in its manifests to its files; else null
   */
  public record Source(HookDocument doc, Supplier<List<Finding>> findings, Function<Range, Origin> origins) {}

  /** How a face takes part in a run; progress comes as it happens, on the run's thread. */
  public interface Face extends Runner.Progress {
    /** Whether the user agrees to run what {@code plan} describes (lines, the last ending in a newline). */
    boolean agree(String plan);

    /** The run starts, under this title. */
    default void starting(String title) {}

    /** The report, while what the run created still exists; what it created goes once this returns. */
    default void ran(RunReport report, Optional<Path> kubeconfig) {}
  }

  /** How a run ended. */
  public sealed interface Outcome {}

  /** The options do not go together, or an image cannot be read: nothing ran. */
  public record Refused(String message) implements Outcome {}

  /** Bubblewrap cannot sandbox the hooks here, and running them unprotected was not asked for: nothing ran. */
  public record NoSandbox() implements Outcome {}

  /** The manifests have nothing to run as asked, each problem on its own: nothing ran. */
  public record NothingToRun(List<String> problems) implements Outcome {}

  /** The user did not agree: nothing ran. */
  public record NotAgreed() implements Outcome {}

  /** The run was stopped; what it created was removed. */
  public record Stopped() implements Outcome {}

  /** The cluster could not run the plan. */
  public record Failed(String message) implements Outcome {}

  /** The run ended with this report. */
  public record Ran(RunReport report) implements Outcome {}

  /** What a plan will run: the text to consent to, a title, and the run itself. */
  private record Planned(List<String> problems, String text, String title, Job job) {}

  /** One run on a runner: container hooks, a Helm operation or a rollout. */
  @FunctionalInterface
  private interface Job {
    RunReport run(Runner runner, List<Finding> findings) throws InterruptedException;
  }

  private final Linter linter;
  private volatile Runner current;

  public HookRuns(Linter linter) {
    this.linter = linter;
  }

  /** Why these options cannot run together, or empty when they can. */
  public static Optional<String> refused(Options o) {
    Selection s = o.selection();
    boolean sequence = o.kind() != Kind.CONTAINER;
    if (sequence && (s.hook() != null || s.container() != null || s.graceSeconds() != null)) {
      return Optional.of("--hook, --container and --grace-period choose container hooks; they do not go with "
          + (o.kind() == Kind.ROLLOUT ? "--rollout" : "--event"));
    }
    if (!sequence && s.hook() != null && !List.of("postStart", "preStop", Selection.ALL).contains(s.hook())) {
      return Optional.of("hook must be postStart, preStop or all, not " + s.hook());
    }
    if (o.kind() == Kind.HELM && o.event() == null) {
      return Optional.of("a Helm run needs an event");
    }
    if (o.kind() == Kind.HELM && s.resource() != null) {
      return Optional.of("--resource does not go with --event: Helm runs every hook of an event");
    }
    if (o.timeout().compareTo(Duration.ofSeconds(1)) < 0) {
      return Optional.of("--timeout must be at least 1 second");
    }
    if (o.startTimeoutSeconds() < 1) {
      return Optional.of("--start-timeout must be at least 1 second");
    }
    if (s.graceSeconds() != null && s.graceSeconds() < 0) {
      return Optional.of("--grace-period must not be negative");
    }
    if (o.kubeconfig() != null && o.context() == null) {
      return Optional.of("--kubeconfig goes with --context");
    }
    if (o.envtest() && o.context() != null) {
      return Optional.of("--cluster envtest starts a control plane here; --context names one that runs elsewhere");
    }
    if (o.kubeAssets() != null && !o.envtest()) {
      return Optional.of("--kube-assets goes with --cluster envtest");
    }
    if (o.kubeAssets() != null && !Files.isDirectory(o.kubeAssets())) {
      return Optional.of("--kube-assets " + o.kubeAssets() + ": no such directory");
    }
    if (!o.imageArchives().isEmpty() && o.context() != null) {
      return Optional.of("--image gives the embedded cluster an image; a real cluster pulls its own");
    }
    for (Map.Entry<String, Path> archive : o.imageArchives().entrySet()) {
      if (!Files.isRegularFile(archive.getValue())) {
        return Optional.of("--image " + archive.getKey() + "=" + archive.getValue() + ": no such file");
      }
    }
    for (Map.Entry<String, Path> root : o.imageRoots().entrySet()) {
      if (!Files.isDirectory(root.getValue())) {
        return Optional.of("--image-root " + root.getKey() + "=" + root.getValue() + ": no such directory");
      }
    }
    return Optional.empty();
  }

  /** The manifests of a target to run, their findings linted with its configuration once the user agreed. */
  public Source source(HookTargets.Target target) {
    HookDocument doc = target.doc();
    return new Source(doc, () -> linter.lint(doc, target.config()).findings(), target.origins());
  }

  /** Plans what the options choose, asks the face, and runs it once the user agreed. */
  public Outcome run(Source source, Options options, Face face) {
    Optional<String> refused = refused(options);
    if (refused.isPresent()) {
      return new Refused(refused.get());
    }
    boolean sandbox = options.context() == null && Runner.sandboxAvailable();
    if (options.context() == null && !sandbox && !options.unsafeNoSandbox()) {
      return new NoSandbox();
    }
    boolean images = !options.imageRoots().isEmpty() || !options.imageArchives().isEmpty();
    if (images && !sandbox) {
      return new Refused("--image and --image-root need bubblewrap on the embedded cluster"
          + (options.context() != null ? "; a real cluster runs the images themselves" : ", and bubblewrap is "
          + "missing or cannot create namespaces here (install Debian's bubblewrap)"));
    }
    Images unpacked;
    try {
      unpacked = Images.of(options.imageRoots(), options.imageArchives());
    } catch (IOException e) {
      return new Refused("cannot unpack an image: " + e.getMessage());
    }
    try (unpacked) {
      Planned planned = plan(source, options, unpacked, sandbox);
      if (!planned.problems().isEmpty()) {
        return new NothingToRun(planned.problems());
      }
      if (!face.agree(planned.text())) {
        return new NotAgreed();
      }
      List<Finding> findings = source.findings().get();
      face.starting(Printable.line(planned.title()));
      return run(planned.job(), findings, options, unpacked, face);
    }
  }

  /** Stops a run in progress: its pods, its namespace or cluster and every process it started go. */
  public void stop() {
    Runner r = current;
    if (r != null) {
      r.close();
    }
  }

  private Outcome run(Job job, List<Finding> findings, Options options, Images images, Face face) {
    Runner runner = options.envtest() ? Runner.envtest(options.kubeAssets(), images, options.startTimeoutSeconds(), face)
        : options.context() == null ? Runner.embedded(images, options.startTimeoutSeconds(), face)
        : Runner.context(options.context(), options.kubeconfig(), options.startTimeoutSeconds(), face);
    current = runner;
    // Ctrl-C, a CI timeout or the editor ending the server: the pods, the namespace and every process still go.
    Thread cleanup = new Thread(runner::close, "hooklens-run-cleanup");
    Runtime.getRuntime().addShutdownHook(cleanup);
    try {
      RunReport report = job.run(runner, findings);
      face.ran(report, runner.kubeconfig());
      return new Ran(report);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Stopped();
    } catch (RunException e) {
      return new Failed(Printable.line(String.valueOf(e.getMessage())));
    } finally {
      current = null;
      runner.close();
      try {
        Runtime.getRuntime().removeShutdownHook(cleanup);
      } catch (IllegalStateException e) {
        // The JVM is already shutting down; the hook runs close() again, which does nothing now.
      }
    }
  }

  private static Planned plan(Source source, Options options, Images images, boolean sandbox) {
    String where = options.envtest() ? Runner.missingControlPlane(options.kubeAssets())
        .map(missing -> "on this machine (the embedded cluster instead of a control plane: " + missing + ")")
        .orElse("on this machine (a control plane of etcd and kube-apiserver started for the run, with the "
            + "embedded node)") : options.context() == null ? "on this machine (embedded cluster)"
        : "on the cluster of context " + options.context() + ", in a new namespace deleted afterwards";
    String sandboxLine = options.context() != null ? ""
        : (sandbox ? Runner.sandboxDescription() : Runner.UNPROTECTED) + "\n";
    if (options.kind() != Kind.CONTAINER) {
      SequencePlan plan = options.kind() == Kind.HELM
          ? SequencePlan.helm(source.doc(), options.event(), options.timeout(), images, options.context() == null,
              source.origins())
          : SequencePlan.rollout(source.doc(), options.selection().resource(), options.timeout());
      boolean helm = plan.kind() == SequencePlan.Kind.HELM;
      StringBuilder s = new StringBuilder();
      line(s, "", "hooklens run will run " + (helm ? "helm " + plan.name() : "the next rollout of " + plan.name())
          + " from " + plan.source() + " " + where + ":");
      plan.description().forEach(l -> line(s, "  ", l));
      return new Planned(plan.problems(), s.append(sandboxLine).toString(),
          helm ? "Running helm " + plan.name() + " hooks" : "Running the rollout of " + plan.name(),
          (runner, findings) -> runner.run(plan, findings));
    }
    Selection asked = options.selection();
    Selection selection = asked.hook() != null ? asked : new Selection(Selection.ALL, asked.container(),
        asked.resource(), asked.document(), asked.graceSeconds());
    RunPlan plan = RunPlan.of(source.doc(), selection, images).withOrigins(source.origins());
    if (!plan.problems().isEmpty()) {
      return new Planned(plan.problems(), "", "", null);
    }
    return new Planned(plan.problems(), describe(plan, images, where) + sandboxLine,
        "Running " + selection.hook() + " hooks of " + plan.pods().get(0).resource(),
        (runner, findings) -> runner.run(plan, findings));
  }

  /** Exactly what will run, for consent. */
  private static String describe(RunPlan plan, Images images, String where) {
    StringBuilder s = new StringBuilder();
    line(s, "", "hooklens run will start " + plan.pods().size() + (plan.pods().size() == 1 ? " pod " : " pods ")
        + where + ":");
    for (PodPlan pod : plan.pods()) {
      Origin origin = plan.origin(Range.at(pod.line(), 0));
      String at = origin == null ? plan.source() + ":" + (pod.line() + 1)
          : origin.file() + ":" + (origin.position().line() + 1);
      line(s, "  ", pod.resource() + " (" + at + ") as pod " + pod.podName() + ", grace period " + pod.graceSeconds()
          + " s");
      for (ContainerPlan c : pod.containers()) {
        Path root = images.root(c.image());
        line(s, "    ", "container \"" + c.name() + "\" runs: " + RunPlan.shell(c.command())
            + (root != null ? "  (inside " + root + ")" : ""));
        for (PlannedHook h : c.hooks()) {
          line(s, "      ", h.hook() + ": " + h.description());
        }
      }
      for (String note : pod.notes()) {
        line(s, "    ", "note: " + note);
      }
    }
    return s.toString();
  }

  /** A line of the plan, which names what the manifest names. */
  private static void line(StringBuilder s, String indent, String text) {
    s.append(indent).append(Printable.line(text)).append('\n');
  }
}
