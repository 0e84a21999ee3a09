package io.hooklens.cli;

import io.hooklens.app.ChartLint;
import io.hooklens.app.ConfigResolver;
import io.hooklens.app.InputFiles;
import io.hooklens.app.IoErrors;
import io.hooklens.chart.ChartLinter;
import io.hooklens.core.engine.Config;
import io.hooklens.core.engine.Finding;
import io.hooklens.core.engine.Linter;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.text.Printable;
import io.hooklens.core.yaml.ParseProblem;
import io.hooklens.core.yaml.Range;
import io.hooklens.rules.BuiltInRules;
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
import io.hooklens.run.report.JsonReport;
import io.hooklens.run.report.RunReport;
import io.hooklens.run.report.SvgTimeline;
import io.hooklens.run.report.TextReport;
import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    header = "Runs hooks on this machine and reports what happened.",
    description = "The postStart and preStop hooks of a manifest's or chart's pods, with the kubelet's semantics (a "
        + "timeline against the grace period, the events, each hook's output); with --event, a Helm operation's or "
        + "event's hooks as Helm runs them; with --rollout, a DeploymentConfig's pre, mid and post hooks as its "
        + "deployer runs them. Each hook gets a verdict that names the static rule it confirms. Asks before it runs "
        + "anything.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
        "0:every hook ran and succeeded, and no app was SIGKILLed",
        "1:a hook failed, was cut off or did not run, an app was SIGKILLed, or the Helm operation or rollout failed",
        "2:usage error, unreadable input, nothing to run, no consent, or a timeline that cannot be written",
        "3:internal error"})
public final class RunCommand implements Callable<Integer> {
  /** Output formats. */
  enum Format { text, json }

  /** Hooks to run. */
  enum HookChoice { postStart, preStop, all }

  private static final int DEFAULT_WIDTH = 100;

  @Spec
  CommandSpec spec;

  @Parameters(index = "0", paramLabel = "FILE|CHART",
      description = "A manifest (YAML or JSON), or a chart directory (or its Chart.yaml), rendered with Helm.")
  Path target;

  @Option(names = "--hook", paramLabel = "HOOK",
      description = "Which container hooks to run: ${COMPLETION-CANDIDATES} (default: all).")
  HookChoice hook;

  @Option(names = "--container", paramLabel = "NAME", description = "Only this container (the pod's others are left out).")
  String container;

  @Option(names = "--resource", paramLabel = "KIND/NAME",
      description = "Only this object, e.g. Deployment/web (default: every object with hooks).")
  String resource;

  @Option(names = "--grace-period", paramLabel = "SECONDS", description = "Replace the pods' grace period.")
  Long gracePeriod;

  @Option(names = "--start-timeout", defaultValue = "30", paramLabel = "SECONDS",
      description = "How long to wait for the containers to run, postStart included (default: ${DEFAULT-VALUE}).")
  long startTimeout;

  @Option(names = "--image-root", paramLabel = "IMAGE=DIR",
      description = "Run containers of IMAGE inside DIR, an unpacked image filesystem (e.g. from docker export), "
          + "read-only, instead of the host's (repeatable; needs bubblewrap).")
  Map<String, Path> imageRoots = new LinkedHashMap<>();

  @Option(names = "--image", paramLabel = "IMAGE=ARCHIVE",
      description = "Run containers of IMAGE from ARCHIVE, an image saved with docker save or podman save (or an "
          + "OCI layout in a tar): its files, read-only, and its entrypoint, env and working directory "
          + "(repeatable; needs bubblewrap).")
  Map<String, Path> imageArchives = new LinkedHashMap<>();

  @Option(names = "--context", paramLabel = "NAME",
      description = "Run on the cluster of this kubeconfig context, in a namespace of its own that is deleted "
          + "afterwards, instead of the embedded cluster.")
  String context;

  @Option(names = "--kubeconfig", paramLabel = "FILE",
      description = "The kubeconfig for --context (default: $KUBECONFIG, then ~/.kube/config).")
  Path kubeconfig;

  @Option(names = "--hold",
      description = "On the embedded cluster: after the report, keep its API and what still runs until Enter, "
          + "for kubectl with the kubeconfig the run prints.")
  boolean hold;

  @Option(names = "--yes", description = "Run without asking (for CI).")
  boolean yes;

  @Option(names = "--unsafe-no-sandbox", description = "Where bubblewrap is missing, run the hooks as plain "
      + "processes with your privileges, network and files instead of refusing.")
  boolean unsafeNoSandbox;

  @Option(names = "--timeline", paramLabel = "FILE", description = "Also write the timeline as an SVG image.")
  Path timeline;

  @Option(names = {"-f", "--format"}, defaultValue = "text", paramLabel = "FORMAT",
      description = "Report format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
  Format format;

  @Mixin
  ColorOption color;

  @Option(names = "--event", paramLabel = "EVENT",
      description = "Run Helm hooks instead: an operation (install, upgrade, rollback, uninstall, test: its pre "
          + "event, the release's own objects, its post event) or one event (pre-install, post-upgrade, ...).")
  String event;

  @Option(names = "--timeout", defaultValue = "300", paramLabel = "SECONDS",
      description = "With --event: how long Helm waits for each hook, as helm --timeout. With --rollout: the most "
          + "the rollout's activeDeadlineSeconds may be here, so that a hook Retry restarts forever ends (default: "
          + "${DEFAULT-VALUE}).")
  long timeout;

  @Option(names = "--rollout",
      description = "Run the next rollout of a DeploymentConfig instead: its pre, mid and post hooks with their "
          + "failure policies (choose one with --resource when there are several).")
  boolean rollout;

  @Mixin
  ChartValues values;

  @Override
  public Integer call() throws IOException {
    PrintWriter err = spec.commandLine().getErr();
    Optional<String> refused = unavailable();
    if (refused.isPresent()) {
      err.println("hooklens: " + refused.get());
      return ExitCodes.USAGE;
    }
    Optional<Read> read;
    try {
      read = read(err);
    } catch (ConfigResolver.ConfigException e) {
      err.println("hooklens: " + e.getMessage());
      return ExitCodes.USAGE;
    }
    if (read.isEmpty()) {
      return ExitCodes.USAGE;
    }
    HookDocument doc = read.get().doc();
    boolean sandbox = context == null && Runner.sandboxAvailable();
    if (context == null && !sandbox && !unsafeNoSandbox) {
      err.println("hooklens: nothing ran: " + Runner.NO_SANDBOX + "; or pass --unsafe-no-sandbox to run them "
          + "unprotected");
      return ExitCodes.USAGE;
    }
    if ((!imageRoots.isEmpty() || !imageArchives.isEmpty()) && !sandbox) {
      err.println("hooklens: --image and --image-root need bubblewrap on the embedded cluster"
          + (context != null ? "; a real cluster runs the images themselves" : ", and bubblewrap is missing or cannot "
          + "create namespaces here (install Debian's bubblewrap)"));
      return ExitCodes.USAGE;
    }
    try (Images images = Images.of(imageRoots, imageArchives)) {
      return plan(read.get(), images, sandbox, err);
    } catch (IOException e) {
      err.println("hooklens: cannot unpack an image: " + e.getMessage());
      return ExitCodes.USAGE;
    }
  }

  private int plan(Read read, Images images, boolean sandbox, PrintWriter err) throws IOException {
    HookDocument doc = read.doc();
    List<Finding> findings = read.findings();
    if (event != null || rollout) {
      SequencePlan plan = event != null
          ? SequencePlan.helm(doc, event, Duration.ofSeconds(timeout), images, context == null, read.origins())
          : SequencePlan.rollout(doc, resource, Duration.ofSeconds(timeout));
      return ask(plan.problems(), () -> describe(plan, sandbox), images, err, runner -> runner.run(plan, findings));
    }
    RunPlan plan = RunPlan.of(doc, new Selection(hook == null ? "all" : hook.name(), container, resource, -1,
        gracePeriod), images).withOrigins(read.origins());
    return ask(plan.problems(), () -> describe(plan, images, sandbox), images, err,
        runner -> runner.run(plan, findings));
  }

  /** Runs a plan once the user agreed to what it will do; refuses a plan with problems. */
  private int ask(List<String> problems, Supplier<String> description, Images images, PrintWriter err, Job job)
      throws IOException {
    if (!problems.isEmpty()) {
      problems.forEach(p -> err.println("hooklens: " + Printable.line(p)));
      return ExitCodes.USAGE;
    }
    err.print(description.get());
    err.flush();
    if (!consent(err)) {
      return ExitCodes.USAGE;
    }
    return run(job, images, err);
  }

  /** Options that do not go together, refused rather than ignored. */
  private Optional<String> unavailable() {
    if (event != null && rollout) {
      return Optional.of("--event runs Helm hooks and --rollout a DeploymentConfig's: choose one");
    }
    if ((event != null || rollout) && (hook != null || container != null || gracePeriod != null)) {
      return Optional.of("--hook, --container and --grace-period choose container hooks; they do not go with "
          + (rollout ? "--rollout" : "--event"));
    }
    if (event != null && resource != null) {
      return Optional.of("--resource does not go with --event: Helm runs every hook of an event");
    }
    if (timeout < 1) {
      return Optional.of("--timeout must be at least 1 second");
    }
    if (startTimeout < 1) {
      return Optional.of("--start-timeout must be at least 1 second");
    }
    if (gracePeriod != null && gracePeriod < 0) {
      return Optional.of("--grace-period must not be negative");
    }
    if (hold && context != null) {
      return Optional.of("--hold keeps the embedded cluster; a real cluster stays anyway");
    }
    if (kubeconfig != null && context == null) {
      return Optional.of("--kubeconfig goes with --context");
    }
    if (!imageArchives.isEmpty() && context != null) {
      return Optional.of("--image gives the embedded cluster an image; a real cluster pulls its own");
    }
    for (Map.Entry<String, Path> archive : imageArchives.entrySet()) {
      if (!Files.isRegularFile(archive.getValue())) {
        return Optional.of("--image " + archive.getKey() + "=" + archive.getValue() + ": no such file");
      }
    }
    for (Map.Entry<String, Path> root : imageRoots.entrySet()) {
      if (!Files.isDirectory(root.getValue())) {
        return Optional.of("--image-root " + root.getKey() + "=" + root.getValue() + ": no such directory");
      }
    }
    // Refused now rather than after a run of minutes whose timeline could then not be saved.
    return timeline == null ? Optional.empty() : AtomicFiles.unwritable(timeline).map(this::cannotWriteTimeline);
  }

  private String cannotWriteTimeline(String reason) {
    return "cannot write the timeline to " + timeline + ": " + reason;
  }

  /** The manifests to run, their static findings, and for a chart the way back to its files. */
  private record Read(HookDocument doc, List<Finding> findings, Function<Range, Origin> origins) {}

  private Optional<Read> read(PrintWriter err) throws IOException, ConfigResolver.ConfigException {
    Optional<String> unreadable = InputFiles.unreadable(target);
    if (unreadable.isPresent()) {
      err.println("hooklens: " + target + ": " + unreadable.get());
      return Optional.empty();
    }
    Linter linter = new Linter(BuiltInRules.registry());
    Path chart = ChartLint.named(target);
    if (chart != null) {
      Optional<ChartLinter.Manifests> rendered = values.render(chart, err);
      if (rendered.isEmpty()) {
        return Optional.empty();
      }
      ChartLinter.Manifests m = rendered.get();
      HookDocument doc = HookDocument.of(chart.toString(), m.parsed());
      Config config = new ConfigResolver(linter.registry(), null).forFile(chart.resolve("Chart.yaml")).config();
      return Optional.of(new Read(doc, linter.lint(doc, config).findings(), range -> {
        ChartLinter.Place place = m.place(range);
        return new Origin(place.file(), place.range().start());
      }));
    }
    if (values.given()) {
      err.println("hooklens: --values and --set apply to charts only; " + target + " is rendered already");
      return Optional.empty();
    }
    Optional<String> text = ManifestText.read(target, err);
    if (text.isEmpty()) {
      return Optional.empty();
    }
    HookDocument doc = linter.parse(target.toString(), text.get());
    for (ParseProblem p : doc.parsed().problems()) {
      if (p.kind() == ParseProblem.Kind.SYNTAX || p.kind() == ParseProblem.Kind.LIMIT) {
        err.println("hooklens: " + target + ":" + (p.range().start().line() + 1) + ":"
            + (p.range().start().column() + 1) + ": " + Printable.line(p.message()));
        return Optional.empty();
      }
    }
    Config config = new ConfigResolver(linter.registry(), null).forFile(target).config();
    return Optional.of(new Read(doc, linter.lint(doc, config).findings(), null));
  }

  /** Exactly what a Helm operation or rollout will run, for consent. */
  private String describe(SequencePlan plan, boolean sandbox) {
    StringBuilder s = new StringBuilder();
    String where = context == null ? "on this machine (embedded cluster)"
        : "on the cluster of context " + context + ", in a new namespace deleted afterwards";
    line(s, "", "hooklens run will run " + (plan.kind() == SequencePlan.Kind.HELM ? "helm " + plan.name()
        : "the next rollout of " + plan.name()) + " from " + plan.source() + " " + where + ":");
    for (String line : plan.description()) {
      line(s, "  ", line);
    }
    sandboxLine(s, sandbox);
    return s.toString();
  }

  /** Exactly what will run, for consent. */
  private String describe(RunPlan plan, Images images, boolean sandbox) {
    StringBuilder s = new StringBuilder();
    String where = context == null ? "on this machine (embedded cluster)"
        : "on the cluster of context " + context + ", in a new namespace deleted afterwards";
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
    sandboxLine(s, sandbox);
    return s.toString();
  }

  /** A line of the plan, which names what the manifest names. */
  private static void line(StringBuilder s, String indent, String text) {
    s.append(indent).append(Printable.line(text)).append('\n');
  }

  private void sandboxLine(StringBuilder s, boolean sandbox) {
    if (context == null) {
      s.append(sandbox ? Runner.sandboxDescription() : Runner.UNPROTECTED).append('\n');
    }
  }

  /** Whether the user agreed: {@code --yes}, or "y" typed on the terminal. */
  private boolean consent(PrintWriter err) {
    if (yes) {
      return true;
    }
    Console console = System.console();
    if (console == null) {
      err.println("hooklens: nothing ran: there is no terminal to ask for consent on; pass --yes to run these "
          + "commands");
      return false;
    }
    String answer = console.readLine("Run these commands on this machine? [y/N] ");
    if (answer != null && List.of("y", "yes").contains(answer.strip().toLowerCase(Locale.ROOT))) {
      return true;
    }
    err.println("hooklens: nothing ran");
    return false;
  }

  /** One run on a runner: container hooks, a Helm operation or a rollout. */
  @FunctionalInterface
  private interface Job {
    RunReport run(Runner runner) throws InterruptedException;
  }

  private int run(Job job, Images images, PrintWriter err) throws IOException {
    Runner.Progress progress = (seconds, pod, what) -> {
      synchronized (err) {
        err.printf(Locale.ROOT, "[%6.2f s] %s: %s%n", seconds, pod, what);
        err.flush();
      }
    };
    Runner runner = context == null ? Runner.embedded(images, startTimeout, progress)
        : Runner.context(context, kubeconfig, startTimeout, progress);
    // Ctrl-C or a CI timeout: the pods, the namespace and every process still go.
    Thread cleanup = new Thread(runner::close, "hooklens-run-cleanup");
    Runtime.getRuntime().addShutdownHook(cleanup);
    try {
      RunReport report;
      try {
        report = job.run(runner);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        err.println("hooklens: the run was stopped; what it created was removed");
        return ExitCodes.FINDINGS;
      } catch (RunException e) {
        err.println("hooklens: " + Printable.line(String.valueOf(e.getMessage())));
        return ExitCodes.USAGE;
      }
      PrintWriter out = spec.commandLine().getOut();
      out.print(format == Format.json ? JsonReport.render(report) + "\n"
          : TextReport.render(report, width(), color.use(false)));
      out.flush();
      int exit = report.succeeded() ? ExitCodes.CLEAN : ExitCodes.FINDINGS;
      if (timeline != null) {
        try {
          AtomicFiles.write(timeline, SvgTimeline.render(report).getBytes(StandardCharsets.UTF_8));
          err.println("hooklens: timeline written to " + timeline);
        } catch (IOException e) {
          err.println("hooklens: " + cannotWriteTimeline(IoErrors.reason(e)));
          exit = ExitCodes.USAGE;
        }
      }
      if (hold) {
        hold(runner, err);
      }
      return exit;
    } finally {
      runner.close();
      try {
        Runtime.getRuntime().removeShutdownHook(cleanup);
      } catch (IllegalStateException e) {
        // The JVM is already shutting down; the hook runs close() again, which does nothing now.
      }
    }
  }

  /** Keeps the embedded cluster serving until a line (or the end) comes on standard input. */
  private static void hold(Runner runner, PrintWriter err) throws IOException {
    err.println("hooklens: the embedded cluster keeps serving"
        + runner.kubeconfig().map(k -> ": kubectl --kubeconfig " + k + " get pods,jobs,events").orElse("")
        + "; press Enter to end it");
    err.flush();
    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
  }

  private static int width() {
    try {
      String columns = System.getenv("COLUMNS");
      return columns == null ? DEFAULT_WIDTH : Integer.parseInt(columns.strip());
    } catch (NumberFormatException e) {
      return DEFAULT_WIDTH;
    }
  }
}
