package io.hooklens.run.report;

import io.hooklens.core.model.openshift.DcPhase;
import io.hooklens.core.model.openshift.FailurePolicy;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One sentence per hook of a sequence, naming the static rule its outcome confirms: a hook Pod that never
 * completes is HL216's case, a hook Helm gave up on HL223's, a Job the API refused HL215's, equal weights run by
 * name HL221's; a failed post hook of a DeploymentConfig is HL314's, Retry running into the deadline HL316's or
 * HL405's, a missing or unknown failure policy HL301's or HL302's.
 */
public final class SequenceVerdicts {
  private static final Set<String> NOT_CREATED = Set.of("HL215", "HL209", "HL210", "HL211");
  private static final Set<String> TIMED_OUT = Set.of("HL216", "HL223");
  private static final String ORDER_BY_NAME = "HL221";
  private static final String NOT_AWAITED = "HL222";
  private static final String POST_ABORT = "HL314";
  private static final String RETRY_CANNOT_SUCCEED = "HL316";
  private static final String DEADLINE = "HL405";
  private static final String MISSING_POLICY = "HL301";
  private static final String UNKNOWN_POLICY = "HL302";
  private static final String CONTAINER_UNKNOWN = "HL307";

  private SequenceVerdicts() {}

  /** The verdicts of a Helm operation or event: one per hook object, and one for a failed release step. */
  public static List<Verdict> helm(String name, List<Sequence.Item> items) {
    List<Verdict> verdicts = new ArrayList<>();
    for (Sequence.Item item : items) {
      if (item.hook()) {
        verdicts.add(helmHook(name, item));
      } else if ("release".equals(item.kind()) && item.message() != null && !item.message().isEmpty()) {
        verdicts.add(new Verdict(item.what(), "release", false, "the release step failed: " + item.message(),
            List.of(), item.predicted()));
      }
    }
    return verdicts;
  }

  private static Verdict helmHook(String operation, Sequence.Item item) {
    String took = Verdicts.seconds(item.durationMs());
    String deleted = item.deletedBy() == null ? "" : "; " + item.deletedBy() + " deleted it";
    switch (item.outcome()) {
      case "succeeded" -> {
        List<String> rules = new ArrayList<>();
        String text;
        if (item.pods().isEmpty()) {
          text = "created; Helm does not wait for this kind";
          if (predicted(item, NOT_AWAITED)) {
            rules.add(NOT_AWAITED);
          }
        } else {
          long failedPods = item.pods().stream().filter(p -> "Failed".equals(p.phase())).count();
          text = "succeeded after " + took + (failedPods > 0 ? ", " + failedPods + " failed pods before" : "");
        }
        if (predicted(item, ORDER_BY_NAME)) {
          text += "; it ran in name order among equal weights";
          rules.add(ORDER_BY_NAME);
        }
        return verdict(item, true, text + deleted, rules);
      }
      case "timed-out" -> {
        return verdict(item, false, "Helm gave up waiting after " + took + " (its --timeout) and failed " + operation
            + deleted, rules(item, TIMED_OUT));
      }
      case "not-created" -> {
        return verdict(item, false, "the API refused it, so " + operation + " failed: " + item.message(),
            rules(item, NOT_CREATED));
      }
      default -> {
        // Why is the sequence's error, in Helm's words, and the item's message: said there, not a third time.
        return verdict(item, false, "failed after " + took + ", so " + operation + " stopped here" + deleted,
            rules(item, Set.of()));
      }
    }
  }

  /** The verdicts of a DeploymentConfig rollout: one per lifecycle hook. */
  public static List<Verdict> rollout(List<Sequence.Item> items) {
    List<Verdict> verdicts = new ArrayList<>();
    for (Sequence.Item item : items) {
      if (item.hook()) {
        verdicts.add(dcHook(item));
      }
    }
    return verdicts;
  }

  private static Verdict dcHook(Sequence.Item item) {
    String policy = item.policies().isEmpty() ? "" : item.policies().get(0);
    String took = Verdicts.seconds(item.durationMs());
    int restarts = item.pods().stream().flatMap(p -> p.containers().stream())
        .mapToInt(Sequence.ContainerOutput::restarts).sum();
    String tries = restarts > 0 ? " on try " + (restarts + 1) : "";
    if ("succeeded".equals(item.outcome())) {
      String text = item.tags().isEmpty() ? "succeeded after " + took + tries
          : "would tag " + String.join(", ", item.tags()) + " (nothing is tagged: there is no image registry here)";
      return verdict(item, true, text, List.of());
    }
    Set<String> rules = new LinkedHashSet<>(rules(item, Set.of()));
    StringBuilder text = new StringBuilder("failed after " + took + (restarts > 0 ? " and " + (restarts + 1)
        + " tries" : "") + ": " + item.message());
    if (item.pods().stream().anyMatch(p -> "DeadlineExceeded".equals(p.reason()))) {
      text.append("; the rollout's activeDeadlineSeconds ended it");
      rules.add(DEADLINE);
      if (FailurePolicy.parse(policy) == FailurePolicy.RETRY && predicted(item, RETRY_CANNOT_SUCCEED)) {
        rules.add(RETRY_CANNOT_SUCCEED);
      }
    }
    if (item.message() != null && item.message().contains("no container named")) {
      rules.add(CONTAINER_UNKNOWN);
    }
    if ("ignored".equals(item.outcome())) {
      text.append("; Ignore let the rollout go on");
    } else if (DcPhase.POST.key().equals(item.group())) {
      text.append("; the new version was already live, and the rollout failed all the same");
      rules.add(POST_ABORT);
    } else {
      text.append("; the rollout was aborted");
    }
    if (policy.isEmpty()) {
      rules.add(MISSING_POLICY);
    } else if (FailurePolicy.parse(policy) == null) {
      rules.add(UNKNOWN_POLICY);
    }
    return verdict(item, false, text.toString(), List.copyOf(rules));
  }

  /**
   * The rules static analysis raised on the object that explain this outcome: those of {@code fitting}, or when
   * none of those was raised, every error and warning on it.
   */
  private static List<String> rules(Sequence.Item item, Set<String> fitting) {
    Set<String> ids = new LinkedHashSet<>();
    item.predicted().stream().filter(p -> fitting.contains(p.rule())).forEach(p -> ids.add(p.rule()));
    if (ids.isEmpty()) {
      item.predicted().stream().filter(p -> !"info".equals(p.severity())).forEach(p -> ids.add(p.rule()));
    }
    return List.copyOf(ids);
  }

  private static boolean predicted(Sequence.Item item, String rule) {
    return item.predicted().stream().anyMatch(p -> p.rule().equals(rule));
  }

  private static Verdict verdict(Sequence.Item item, boolean ok, String text, List<String> rules) {
    String see = rules.isEmpty() ? "" : " — see " + String.join("/", rules);
    return new Verdict(item.what(), item.group(), ok, text + see, rules, item.predicted());
  }
}
