package io.hooklens.run.report;

import java.util.List;
import java.util.stream.Stream;

/**
 * What a run did, for people (text, SVG) and machines (JSON, whose field names are these components').
 * A run of container hooks has steps, one pod started and deleted each; a run of a Helm event or a
 * DeploymentConfig rollout has one sequence.
 *
 * @param version the JSON contract's version
 * @param source the manifest or chart, as its name was given
 * @param target {@code embedded} or {@code context NAME}
 * @param isolated whether containers ran in the bubblewrap sandbox (embedded target only)
 * @param clusterStartMs how long the cluster the run started took to be ready (its API server, node agent and
 *     controllers); null when the run used a kubeconfig context's cluster
 */
public record RunReport(int version, String source, String target, boolean isolated, List<Step> steps,
    List<Sequence> sequences, List<String> notes, Long clusterStartMs) {
  public static final int VERSION = 1;

  /** Every verdict of the run, steps first. */
  public Stream<Verdict> verdicts() {
    return Stream.concat(steps.stream().flatMap(s -> s.verdicts().stream()),
        sequences.stream().flatMap(s -> s.verdicts().stream()));
  }

  /** Whether every hook ran and succeeded and no app was SIGKILLed. */
  public boolean succeeded() {
    return verdicts().allMatch(Verdict::ok) && sequences.stream().allMatch(Sequence::succeeded);
  }
}
