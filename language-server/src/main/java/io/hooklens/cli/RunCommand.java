package io.hooklens.cli;

import io.hooklens.app.AtomicFiles;
import io.hooklens.app.ConfigResolver;
import io.hooklens.app.HookRuns;
import io.hooklens.app.HookTargets;
import io.hooklens.app.IoErrors;
import io.hooklens.core.engine.Linter;
import io.hooklens.core.text.Printable;
import io.hooklens.rules.BuiltInRules;
import io.hooklens.run.Runner;
import io.hooklens.run.Selection;
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
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;

public final class RunCommand implements Callable<Integer> {
  /** The name that runs this command. */
  static final String NAME = "run";

  /** Output formats. */
  enum Format { text, json }

  /** Where the hooks run, when no --context names a cluster. */
  enum ClusterKind { embedded, envtest }

  /** Hooks to run. */
  enum HookChoice { postStart, preStop, all }

  private static final int DEFAULT_WIDTH = 100;

  private CommandSpec spec;
  Path target;
  HookChoice hook;
  String container;
  String resource;
  Long gracePeriod;
  long startTimeout;
  Map<String, Path> imageRoots = new LinkedHashMap<>();
  Map<String, Path> imageArchives = new LinkedHashMap<>();
  ClusterKind cluster;
  Path kubeAssets;
  String context;
  Path kubeconfig;
  boolean hold;
  boolean yes;
  boolean unsafeNoSandbox;
  Path timeline;
  Format format;
  final ColorOption color = new ColorOption();
  String event;
  long timeout;
  boolean rollout;
  final ChartValues values = new ChartValues();

  /** This command's model. */
  CommandSpec spec() {
    spec = Specs.command(NAME, this);
    spec.usageMessage()
        .sortOptions(false)
        .header("Runs hooks on this machine and reports what happened.")
        .description("The postStart and preStop hooks of a manifest's or chart's pods, with the kubelet's "
            + "semantics (a timeline against the grace period, the events, each hook's output); with "
            + "--event, a Helm operation's or event's hooks as Helm runs them; with --rollout, a "
            + "DeploymentConfig's pre, mid and post hooks as its deployer runs them. Each hook gets a "
            + "verdict that names the static rule it confirms. Asks before it runs anything.")
        .exitCodeListHeading("%nExit codes:%n")
        .exitCodeList(Specs.exitCodes(
            "0:every hook ran and succeeded, and no app was SIGKILLed",
            "1:a hook failed, was cut off or did not run, an app was SIGKILLed, or the Helm operation or "
                + "rollout failed",
            "2:usage error, unreadable input, nothing to run, no consent, a manifest the API server refuses, "
                + "a cluster that cannot be reached or started, or a timeline that cannot be written",
            "3:internal error"));
    spec.addPositional(Specs.positional(Path.class, () -> target, v -> target = v).index("0").paramLabel("FILE|CHART")
        .description("A manifest (YAML or JSON), or a chart directory (or its Chart.yaml), rendered with "
            + "Helm.").build());
    spec.addOption(Specs.option(HookChoice.class, () -> hook, v -> hook = v, "--hook").paramLabel("HOOK")
        .description("Which container hooks to run: ${COMPLETION-CANDIDATES} (default: all).").build());
    spec.addOption(Specs.option(String.class, () -> container, v -> container = v, "--container").paramLabel("NAME")
        .description("Only this container (the pod's others are left out).").build());
    spec.addOption(Specs.option(String.class, () -> resource, v -> resource = v, "--resource").paramLabel("KIND/NAME")
        .description("Only this object, e.g. Deployment/web (default: every object with hooks).").build());
    spec.addOption(Specs.option(Long.class, () -> gracePeriod, v -> gracePeriod = v, "--grace-period")
        .paramLabel("SECONDS")
        .description("Replace the pods' grace period.").build());
    spec.addOption(Specs.option(long.class, () -> startTimeout, v -> startTimeout = v, "--start-timeout")
        .paramLabel("SECONDS").defaultValue("30")
        .description("How long to wait for the containers to run, postStart included (default: "
            + "${DEFAULT-VALUE}).").build());
    spec.addOption(Specs.map(Path.class, () -> imageRoots, v -> imageRoots = v, "--image-root").paramLabel("IMAGE=DIR")
        .description("Run containers of IMAGE inside DIR, an unpacked image filesystem (e.g. from docker "
            + "export), read-only, instead of the host's (repeatable; needs bubblewrap).").build());
    spec.addOption(Specs.map(Path.class, () -> imageArchives, v -> imageArchives = v, "--image")
        .paramLabel("IMAGE=ARCHIVE")
        .description("Run containers of IMAGE from ARCHIVE, an image saved with docker save or podman save "
            + "(or an OCI layout in a tar): its files, read-only, and its entrypoint, env and working "
            + "directory (repeatable; needs bubblewrap).").build());
    spec.addOption(Specs.option(ClusterKind.class, () -> cluster, v -> cluster = v, "--cluster")
        .paramLabel("KIND").defaultValue("embedded")
        .description("The cluster started for the run: embedded (an in-process mock API, fast) or envtest "
            + "(real etcd, kube-apiserver, kube-controller-manager and kube-scheduler binaries on "
            + "loopback, which validate and default as a cluster does; without them, the embedded one, "
            + "said in the report) (default: ${DEFAULT-VALUE}).").build());
    spec.addOption(Specs.option(Path.class, () -> kubeAssets, v -> kubeAssets = v, "--kube-assets").paramLabel("DIR")
        .description("With --cluster envtest: the folder of the control-plane binaries (default: "
            + "$KUBEBUILDER_ASSETS, then the cache scripts/kube-assets.sh builds into).").build());
    spec.addOption(Specs.option(String.class, () -> context, v -> context = v, "--context").paramLabel("NAME")
        .description("Run on the cluster of this kubeconfig context, in a namespace of its own that is "
            + "deleted afterwards, instead of the embedded cluster.").build());
    spec.addOption(Specs.option(Path.class, () -> kubeconfig, v -> kubeconfig = v, "--kubeconfig").paramLabel("FILE")
        .description("The kubeconfig for --context (default: $KUBECONFIG, then ~/.kube/config).").build());
    spec.addOption(Specs.option(boolean.class, () -> hold, v -> hold = v, "--hold")
        .description("On the embedded cluster: after the report, keep its API and what still runs until "
            + "Enter, for kubectl with the kubeconfig the run prints.").build());
    spec.addOption(Specs.option(boolean.class, () -> yes, v -> yes = v, "--yes")
        .description("Run without asking (for CI).").build());
    spec.addOption(Specs.option(boolean.class, () -> unsafeNoSandbox, v -> unsafeNoSandbox = v, "--unsafe-no-sandbox")
        .description("Where bubblewrap is missing, run the hooks as plain processes with your privileges, "
            + "network and files instead of refusing.").build());
    spec.addOption(Specs.option(Path.class, () -> timeline, v -> timeline = v, "--timeline").paramLabel("FILE")
        .description("Also write the timeline as an SVG image.").build());
    spec.addOption(Specs.option(Format.class, () -> format, v -> format = v, "-f", "--format")
        .paramLabel("FORMAT").defaultValue("text")
        .description("Report format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).").build());
    color.addTo(spec);
    spec.addOption(Specs.option(String.class, () -> event, v -> event = v, "--event").paramLabel("EVENT")
        .description("Run Helm hooks instead: an operation (install, upgrade, rollback, uninstall, test: "
            + "its pre event, the release's own objects, its post event) or one event (pre-install, "
            + "post-upgrade, ...).").build());
    spec.addOption(Specs.option(long.class, () -> timeout, v -> timeout = v, "--timeout")
        .paramLabel("SECONDS").defaultValue("300")
        .description("With --event: how long Helm waits for each hook, as helm --timeout. With --rollout: "
            + "the most the rollout's activeDeadlineSeconds may be here, so that a hook Retry restarts "
            + "forever ends (default: ${DEFAULT-VALUE}).").build());
    spec.addOption(Specs.option(boolean.class, () -> rollout, v -> rollout = v, "--rollout")
        .description("Run the next rollout of a DeploymentConfig instead: its pre, mid and post hooks with "
            + "their failure policies (choose one with --resource when there are several).").build());
    values.addTo(spec);
    return Specs.withHelp(spec);
  }

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    Optional<String> refused = unavailable();
    if (refused.isPresent()) {
      err.println("hooklens: " + refused.get());
      return ExitCodes.USAGE;
    }
    if (!values.valid(err)) {
      return ExitCodes.USAGE;
    }
    Linter linter = new Linter(BuiltInRules.registry());
    HookRuns runs = new HookRuns(linter);
    HookRuns.Source source;
    try {
      HookTargets.Target named = new HookTargets(linter).named(target, values.values(), HookTargets.Reading.LINTED);
      // A chart Helm rendered in part runs without what it left out, and with placeholders: said before consent.
      named.notes().forEach(n -> err.println("hooklens: " + Printable.line(n)));
      source = runs.source(named);
    } catch (HookTargets.Unavailable | ConfigResolver.ConfigException e) {
      err.println("hooklens: " + e.getMessage());
      return ExitCodes.USAGE;
    }
    Face face = new Face(err);
    HookRuns.Outcome outcome = runs.run(source, options(), face);
    if (outcome instanceof HookRuns.Ran ran) {
      return face.timelineFailed ? ExitCodes.USAGE : ran.report().succeeded() ? ExitCodes.CLEAN : ExitCodes.FINDINGS;
    }
    if (outcome instanceof HookRuns.Stopped) {
      err.println("hooklens: the run was stopped; what it created was removed");
      return ExitCodes.FINDINGS;
    }
    if (outcome instanceof HookRuns.NoSandbox) {
      err.println("hooklens: nothing ran: " + Runner.NO_SANDBOX + "; or pass --unsafe-no-sandbox to run them "
          + "unprotected");
    } else if (outcome instanceof HookRuns.NothingToRun nothing) {
      nothing.problems().forEach(p -> err.println("hooklens: " + Printable.line(p)));
    } else if (outcome instanceof HookRuns.Refused r) {
      err.println("hooklens: " + r.message());
    } else if (outcome instanceof HookRuns.Failed f) {
      err.println("hooklens: " + f.message());
    }
    // Not agreed: the question already said that nothing ran.
    return ExitCodes.USAGE;
  }

  /** The options as the shared use case takes them. */
  private HookRuns.Options options() {
    HookRuns.Kind kind = event != null ? HookRuns.Kind.HELM : rollout ? HookRuns.Kind.ROLLOUT
        : HookRuns.Kind.CONTAINER;
    return new HookRuns.Options(kind, new Selection(hook == null ? null : hook.name(), container, resource, -1,
        gracePeriod), event, Duration.ofSeconds(timeout), startTimeout, context, kubeconfig, imageRoots,
        imageArchives, unsafeNoSandbox, cluster == ClusterKind.envtest, kubeAssets);
  }

  /** Options that do not go together, refused rather than ignored, before anything is read. */
  private Optional<String> unavailable() {
    if (event != null && rollout) {
      return Optional.of("--event runs Helm hooks and --rollout a DeploymentConfig's: choose one");
    }
    if (hold && context != null) {
      return Optional.of("--hold keeps the embedded cluster; a real cluster stays anyway");
    }
    Optional<String> refused = HookRuns.refused(options());
    if (refused.isPresent()) {
      return refused;
    }
    // Refused now rather than after a run of minutes whose timeline could then not be saved.
    return timeline == null ? Optional.empty() : AtomicFiles.unwritable(timeline).map(this::cannotWriteTimeline);
  }

  private String cannotWriteTimeline(String reason) {
    return "cannot write the timeline to " + timeline + ": " + reason;
  }

  /** The terminal's part in a run: the plan and the question on standard error, the report on standard output. */
  private final class Face implements HookRuns.Face {
    private final PrintWriter err;
    private boolean timelineFailed;

    Face(PrintWriter err) {
      this.err = err;
    }

    /** {@code --yes}, or "y" typed on the terminal. */
    @Override
    public boolean agree(String plan) {
      err.print(plan);
      err.flush();
      if (yes) {
        return true;
      }
      Console console = System.console();
      if (console == null) {
        err.println("hooklens: nothing ran: there is no terminal to ask for consent on; pass --yes to run these "
            + "commands");
        return false;
      }
      String answer = console.readLine(HookRuns.QUESTION + " [y/N] ");
      if (answer != null && List.of("y", "yes").contains(answer.strip().toLowerCase(Locale.ROOT))) {
        return true;
      }
      err.println("hooklens: nothing ran");
      return false;
    }

    @Override
    public void line(double seconds, String pod, String what) {
      synchronized (err) {
        err.printf(Locale.ROOT, "[%6.2f s] %s: %s%n", seconds, pod, what);
        err.flush();
      }
    }

    @Override
    public void ran(RunReport report, Optional<Path> kubeconfig) {
      PrintWriter out = spec.commandLine().getOut();
      out.print(format == Format.json ? JsonReport.render(report) + "\n"
          : TextReport.render(report, width(), color.use(false)));
      out.flush();
      if (timeline != null) {
        try {
          AtomicFiles.write(timeline, SvgTimeline.render(report).getBytes(StandardCharsets.UTF_8));
          err.println("hooklens: timeline written to " + timeline);
        } catch (IOException e) {
          err.println("hooklens: " + cannotWriteTimeline(IoErrors.reason(e)));
          timelineFailed = true;
        }
      }
      if (hold) {
        hold(kubeconfig, err);
      }
    }
  }

  /** Keeps the embedded cluster serving until a line (or the end) comes on standard input. */
  private static void hold(Optional<Path> kubeconfig, PrintWriter err) {
    err.println("hooklens: the embedded cluster keeps serving"
        + kubeconfig.map(k -> ": kubectl --kubeconfig " + k + " get pods,jobs,events").orElse("")
        + "; press Enter to end it");
    err.flush();
    try {
      new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    } catch (IOException e) {
      // Standard input is gone: nobody is left to use the cluster.
    }
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
