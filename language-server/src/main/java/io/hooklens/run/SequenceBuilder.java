package io.hooklens.run;

import io.hooklens.core.engine.Finding;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.helm.DeletePolicy;
import io.hooklens.core.model.helm.HookPlan;
import io.hooklens.core.model.openshift.DcHook;
import io.hooklens.core.yaml.Range;
import io.hooklens.run.helm.HelmHooks;
import io.hooklens.run.kube.PodRun;
import io.hooklens.run.openshift.DeploymentConfigDeployer;
import io.hooklens.run.report.Prediction;
import io.hooklens.run.report.Sequence;
import io.hooklens.run.report.SequenceVerdicts;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.Locale;

/**
 * Turns what the Helm hook runner or the DeploymentConfig deployer did into the report's {@link Sequence}:
 * times in milliseconds since the sequence began, each hook with the static findings on its object, and the
 * verdicts.
 */
final class SequenceBuilder {
  private final SequencePlan plan;
  private final String namespace;
  private final long origin;
  private final List<Finding> findings;

  /** @param origin the start, on the clock of the results' times */
  SequenceBuilder(SequencePlan plan, String namespace, long origin, List<Finding> findings) {
    this.plan = plan;
    this.namespace = namespace;
    this.origin = origin;
    this.findings = findings;
  }

  Sequence helm(HelmHooks.OperationResult result, long end) {
    List<HelmHooks.PhaseResult> phases = result.phases();
    List<Sequence.Item> items = new ArrayList<>(phaseItems(phases.isEmpty() ? List.of() : phases.subList(0, 1)));
    HelmHooks.ReleaseResult release = result.release();
    String error = phases.stream().map(HelmHooks.PhaseResult::error).filter(e -> e != null).findFirst()
        .map(ClientMessages::plain).orElse(null);
    if (release != null) {
      String what = release.action() + " " + (release.objects().isEmpty() ? "nothing" : String.join(", ",
          release.objects())) + (release.kept().isEmpty() ? "" : "; kept by resource-policy: "
          + String.join(", ", release.kept()));
      items.add(new Sequence.Item("release", "release", what, null, List.of(), release.error() == null ? "succeeded"
          : "failed", release.error() == null ? "" : ClientMessages.plain(release.error()), ms(release.startNanos()),
          ms(release.endNanos()), null, null, List.of(), List.of(), List.of(), false));
      if (error == null) {
        error = ClientMessages.plain(release.error());
      }
    }
    if (phases.size() > 1) {
      items.addAll(phaseItems(phases.subList(1, phases.size())));
    }
    return new Sequence("helm", plan.name(), namespace, items, error, ms(end), SequenceVerdicts.helm(plan.name(),
        items), List.of());
  }

  /** A single event's hooks. */
  Sequence event(HelmHooks.PhaseResult phase, long end) {
    List<Sequence.Item> items = phaseItems(List.of(phase));
    return new Sequence("helm", plan.name(), namespace, items, ClientMessages.plain(phase.error()), ms(end),
        SequenceVerdicts.helm(plan.name(), items), List.of());
  }

  private List<Sequence.Item> phaseItems(List<HelmHooks.PhaseResult> phases) {
    List<Sequence.Item> items = new ArrayList<>();
    for (HelmHooks.PhaseResult phase : phases) {
      List<HookPlan.Step> steps = HookPlan.of(plan.doc()).stream().filter(e -> e.name().equals(phase.event()))
          .findFirst().map(HookPlan.Event::steps).orElse(List.of());
      for (HelmHooks.HookResult hook : phase.hooks()) {
        Resource resource = hook.position() <= steps.size() ? steps.get(hook.position() - 1).resource() : null;
        List<String> policies = new ArrayList<>(
            hook.deletePolicies().stream().map(DeletePolicy::annotation).toList());
        if (hook.defaultPolicy() && !policies.isEmpty()) {
          policies.set(0, policies.get(0) + " (default)");
        }
        items.add(new Sequence.Item(phase.event(), "hook", hook.kind() + "/" + hook.name(), hook.weight(),
            List.copyOf(policies), hook.outcome().name().toLowerCase(Locale.ROOT).replace('_', '-'),
            ClientMessages.plain(hook.message()),
            ms(hook.createdNanos()), ms(hook.finishedNanos()),
            hook.deletion() == null ? null : hook.deletion().policy().annotation(),
            hook.deletion() == null ? null : ms(hook.deletion().nanos()), pods(hook.pods()), List.of(),
            resource == null ? List.of() : predictions(resource.root().range()), hook.replacedExisting()));
      }
    }
    return items;
  }

  Sequence rollout(DeploymentConfigDeployer.Rollout rollout, long end) {
    List<Sequence.Item> items = new ArrayList<>();
    List<DcHook> hooks = DcHook.of(plan.deploymentConfig());
    for (DeploymentConfigDeployer.Step step : rollout.steps()) {
      boolean hook = step.kind() == DeploymentConfigDeployer.Kind.HOOK;
      List<Prediction> predicted = List.of();
      if (hook) {
        predicted = hooks.stream().filter(h -> h.phase().key().equals(step.phase()) && h.runsOnRollout()
                && h.hook() != null).findFirst().map(h -> predictions(new Range(h.key().range().start(),
                h.hook().range().end()))).orElse(List.of());
      }
      items.add(new Sequence.Item(hook ? step.phase() : "deployer", step.kind().name().toLowerCase(Locale.ROOT),
          step.description(), null, step.policy() == null ? List.of()
          : List.of(step.policy()), step.outcome().name().toLowerCase(Locale.ROOT), step.message(),
          ms(step.startNanos()), ms(step.endNanos()), null, null, step.run() == null ? List.of()
          : pods(List.of(step.run())), step.tags(), predicted, false));
    }
    List<String> notes = new ArrayList<>();
    notes.add("the new deployment is " + rollout.deployment() + " (strategy " + rollout.strategy() + "); there are no "
        + "ReplicationControllers here, so scaling is recorded, not performed");
    return new Sequence("rollout", plan.name(), namespace, items, rollout.error(), ms(end),
        SequenceVerdicts.rollout(items), notes);
  }

  private static List<Sequence.PodOutput> pods(List<PodRun> runs) {
    return runs.stream().map(p -> new Sequence.PodOutput(p.name(), p.phase(), p.reason(), p.containers().stream()
        .map(c -> new Sequence.ContainerOutput(c.name(), c.exitCode(), c.reason(), c.message(), c.restarts(),
            c.output(), c.outputDroppedBytes(), IntStream.range(0, c.runs().size()).mapToObj(i -> new Sequence.RunOutput(
                i, c.runs().get(i).exitCode(), c.runs().get(i).output().text(),
                c.runs().get(i).output().droppedBytes())).toList()))
        .toList())).toList();
  }

  private long ms(long nanos) {
    return (nanos - origin) / 1_000_000;
  }

  private List<Prediction> predictions(Range range) {
    return Predictions.inside(findings, range, plan::origin);
  }
}
