package io.hooklens.run.report;

import java.util.List;

/**
 * What a run did, for people (text, SVG) and machines (JSON, whose field names are these components').
 * A run is a sequence of steps; today each step is one pod started and deleted, later also Helm hook
 * phases and DeploymentConfig hooks.
 *
 * @param version the JSON contract's version
 * @param source the manifest, as its name was given
 * @param target {@code embedded} or {@code context NAME}
 * @param isolated whether containers ran in the bubblewrap sandbox (embedded target only)
 */
public record RunReport(int version, String source, String target, boolean isolated, List<Step> steps,
    List<String> notes) {
  public static final int VERSION = 1;

  /** Whether every hook ran and succeeded and no app was SIGKILLed. */
  public boolean succeeded() {
    return steps.stream().allMatch(s -> s.verdicts().stream().allMatch(Verdict::ok));
  }
}
