package io.hooklens.run.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Turns what happened to a hook into one sentence that names the static rule it confirms: a preStop cut
 * off by the grace period is HL401's case, a grace period of 0 HL403's, a postStart that holds the start
 * HL121's; a failed hook confirms whatever static analysis found on the same handler.
 */
public final class Verdicts {
  /** HL121's default postStartMaxSeconds: a postStart this long holds up the start noticeably. */
  private static final long LONG_POST_START_MS = 10_000;
  private static final String PRE_STOP_BUDGET = "HL401";
  private static final String ZERO_GRACE = "HL403";
  private static final String POST_START_BLOCKING = "HL121";
  private static final String LITTLE_SHUTDOWN_TIME = "HL402";

  private Verdicts() {}

  /**
   * One verdict per hook of the step: of a hook that ran for several runs of its container, the first run where it
   * did not succeed (else the last), saying in how many runs it failed.
   */
  public static List<Verdict> of(Step step, long startTimeoutMs) {
    List<Verdict> verdicts = new ArrayList<>();
    Map<String, List<HookResult>> runs = new LinkedHashMap<>();
    for (HookResult hook : step.hooks()) {
      runs.computeIfAbsent(hook.container() + "\u0000" + hook.hook(), k -> new ArrayList<>()).add(hook);
    }
    for (List<HookResult> same : runs.values()) {
      HookResult hook = same.stream().filter(h -> !"succeeded".equals(h.status())).findFirst()
          .orElse(same.get(same.size() - 1));
      Verdict v = "preStop".equals(hook.hook()) ? preStop(step, hook) : postStart(step, hook, startTimeoutMs);
      if (same.size() > 1) {
        long failed = same.stream().filter(h -> !"succeeded".equals(h.status())).count();
        String count = failed == 0 ? "; the same in all " + same.size() + " runs"
            : "; it failed in " + failed + " of " + same.size() + " runs";
        int see = v.text().lastIndexOf(" — see ");
        String text = see < 0 ? v.text() + count : v.text().substring(0, see) + count + v.text().substring(see);
        v = new Verdict(v.container(), v.hook(), v.ok(), text, v.rules(), v.predicted());
      }
      verdicts.add(v);
    }
    return verdicts;
  }

  private static Verdict preStop(Step step, HookResult hook) {
    long grace = step.graceSeconds();
    Optional<Signal> kill = signal(step, hook.container(), "SIGKILL");
    Optional<Signal> term = step.signals().stream().filter(s -> s.container().equals(hook.container()) && s.stop())
        .findFirst();
    String stopSignal = term.map(Signal::signal).orElse("SIGTERM");
    String killed = kill.map(k -> "the app was SIGKILLed at " + sinceStop(step, hook.container(), k.atMs()))
        .orElse(null);
    switch (hook.status()) {
      case "cut-off" -> {
        return verdict(hook, false, "preStop was still running when the grace period of " + grace + " s ran out (cut "
            + "off after " + seconds(hook.durationMs()) + "): " + (killed != null ? killed
            : "the app got only the kubelet's 2-second minimum after " + stopSignal), PRE_STOP_BUDGET);
      }
      case "failed" -> {
        return verdict(hook, false, "preStop failed after " + seconds(hook.durationMs()) + " and FailedPreStopHook "
            + "was recorded (" + message(hook) + "); the container was stopped anyway"
            + (killed != null ? "; " + killed : ""), predictedRules(hook));
      }
      case "succeeded" -> {
        String took = "preStop took " + seconds(hook.durationMs()) + " of the " + grace + " s grace period";
        if (killed != null) {
          return verdict(hook, false, took + ", but the app did not stop on " + stopSignal + ": " + killed,
              predicted(hook, LITTLE_SHUTDOWN_TIME) ? List.of(LITTLE_SHUTDOWN_TIME) : List.of());
        }
        Optional<ContainerResult> c = container(step, hook.container());
        String stopped = term.isPresent() && c.isPresent() && c.get().exitedMs() != null
            ? "; the app stopped " + seconds(c.get().exitedMs() - term.get().atMs()) + " after " + stopSignal : "";
        return verdict(hook, true, took + stopped, List.of());
      }
      case "unknown" -> {
        Optional<ContainerResult> c = container(step, hook.container());
        String exited = c.isPresent() && c.get().exitedMs() != null
            ? "the container ended " + sinceStop(step, hook.container(), c.get().exitedMs())
            : "the container's end was not seen";
        if (killed != null) {
          return verdict(hook, false, exited + " with exit code 137: the app was SIGKILLed; grace period " + grace
              + " s", PRE_STOP_BUDGET);
        }
        return verdict(hook, true, exited + "; the hook's own end is not visible through the API", List.of());
      }
      default -> {
        if (grace == 0) {
          return verdict(hook, false, "grace period 0: preStop did not run and the app was killed at once",
              ZERO_GRACE);
        }
        return verdict(hook, false, "preStop did not run: the container was not running when the pod was deleted",
            List.of());
      }
    }
  }

  private static Verdict postStart(Step step, HookResult hook, long startTimeoutMs) {
    switch (hook.status()) {
      case "failed" -> {
        return verdict(hook, false, "postStart failed after " + seconds(hook.durationMs()) + ": the container was "
            + "killed and FailedPostStartHook recorded (" + message(hook) + ")", predictedRules(hook));
      }
      case "running" -> {
        return verdict(hook, false, "postStart had not returned after " + seconds(startTimeoutMs) + ": the container "
            + "never became Running and the containers after it never started", POST_START_BLOCKING);
      }
      case "succeeded", "unknown" -> {
        Long took = hook.durationMs();
        if (took != null && took >= LONG_POST_START_MS) {
          return verdict(hook, true, "postStart held the container's start for " + seconds(took)
              + " before it became Running", POST_START_BLOCKING);
        }
        return verdict(hook, true, took == null ? "postStart returned; the container became Running"
            : "postStart succeeded in " + seconds(took) + "; the container became Running", List.of());
      }
      default -> {
        String why = container(step, hook.container()).map(ContainerResult::reason).orElse(null);
        return verdict(hook, false, "postStart did not run: the container did not start"
            + (why == null ? "" : " (" + why + ")"), List.of());
      }
    }
  }

  private static String message(HookResult hook) {
    return hook.message() == null ? "no message" : withoutOutput(hook);
  }

  /**
   * A hook's message without the end of its output that the kubelet's message quotes, when the output is reported
   * beside it: said once, as lines, rather than again on one line.
   */
  static String withoutOutput(HookResult hook) {
    String message = hook.message();
    String output = hook.output() == null ? "" : hook.output().strip();
    if (message == null || output.isEmpty()) {
      return message;
    }
    for (int at = message.indexOf(": "); at >= 0; at = message.indexOf(": ", at + 1)) {
      String quoted = message.substring(at + 2).strip();
      quoted = quoted.startsWith("…") ? quoted.substring(1) : quoted;
      if (!quoted.isEmpty() && output.endsWith(quoted)) {
        return message.substring(0, at) + "; see its output";
      }
    }
    return message;
  }

  private static Verdict verdict(HookResult hook, boolean ok, String text, String rule) {
    return verdict(hook, ok, text, List.of(rule));
  }

  private static Verdict verdict(HookResult hook, boolean ok, String text, List<String> rules) {
    String see = rules.isEmpty() ? "" : " — see " + String.join("/", rules);
    return new Verdict(hook.container(), hook.hook(), ok, text + see, rules, hook.predicted());
  }

  /**
   * The handler rules (HL1xx) that warned about a failed hook or found an error in it; budget rules are
   * about time and informational findings about style, neither explains a failure.
   */
  private static List<String> predictedRules(HookResult hook) {
    Set<String> ids = new LinkedHashSet<>();
    hook.predicted().stream().filter(p -> p.rule().startsWith("HL1") && !"info".equals(p.severity()))
        .forEach(p -> ids.add(p.rule()));
    return List.copyOf(ids);
  }

  private static boolean predicted(HookResult hook, String rule) {
    return hook.predicted().stream().anyMatch(p -> p.rule().equals(rule));
  }

  private static Optional<Signal> signal(Step step, String container, String name) {
    return step.signals().stream().filter(s -> s.container().equals(container) && s.signal().equals(name))
        .findFirst();
  }

  private static Optional<ContainerResult> container(Step step, String name) {
    return step.containers().stream().filter(c -> c.name().equals(name)).findFirst();
  }

  private static String sinceStop(Step step, String container, long atMs) {
    long start = Scale.stopStart(step, container);
    boolean deletion = step.deleteMs() != null && start == step.deleteMs();
    return seconds(atMs - start) + (deletion ? " after deletion" : " after its stop began");
  }

  /** Milliseconds as {@code 3.0 s}. */
  public static String seconds(Long ms) {
    return ms == null ? "an unknown time" : String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
  }
}
