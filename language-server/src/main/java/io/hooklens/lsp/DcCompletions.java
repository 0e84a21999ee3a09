package io.hooklens.lsp;

import io.hooklens.core.model.Resource;
import io.hooklens.core.model.openshift.DcPhase;
import io.hooklens.core.model.openshift.FailurePolicy;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YSeq;
import java.util.ArrayList;
import java.util.List;

/**
 * What an editor may offer while a DeploymentConfig hook is being written: the phases a strategy
 * runs, failure policies in the order that suits the phase, hook skeletons, and the template's
 * container and volume names. The same facts the HL3xx rules check, so completion never suggests
 * something a rule would then report.
 */
public final class DcCompletions {
  private DcCompletions() {}

  /** A value to offer, with why. */
  public record Item(String label, String detail) {}

  /** Phases the strategy type runs; Rolling has no mid (HL310). */
  public static List<String> phases(String strategyType) {
    return "Recreate".equals(strategyType) ? DcPhase.KEYS : List.of(DcPhase.PRE.key(), DcPhase.POST.key());
  }

  /** Failure policies, the safe choice first: Ignore for post (HL314), Abort elsewhere. */
  public static List<Item> failurePolicies(String phase) {
    Item abort = new Item(FailurePolicy.ABORT.value(), "a failing hook fails the rollout");
    Item retry = new Item(FailurePolicy.RETRY.value(),
        "the hook pod is restarted until it succeeds or the rollout's deadline passes");
    Item ignore = new Item(FailurePolicy.IGNORE.value(), "a failing hook is recorded and the rollout goes on");
    if (DcPhase.POST.key().equals(phase)) {
      return List.of(new Item(ignore.label(), ignore.detail() + "; post runs after the new version is live"),
          abort, retry);
    }
    return List.of(abort, retry, ignore);
  }

  /** Regular containers of the template: the only ones execNewPod and tagImages can use (HL307, HL308). */
  public static List<String> containerNames(Resource dc) {
    return names(podSpec(dc), "containers");
  }

  /** Volumes of the template: the only ones execNewPod.volumes can name (HL317). */
  public static List<String> volumeNames(Resource dc) {
    return names(podSpec(dc), "volumes");
  }

  /** A hook skeleton for a phase, as YAML lines indented under the phase key. */
  public static List<Item> skeletons(String phase, Resource dc) {
    List<String> containers = containerNames(dc);
    String container = containers.isEmpty() ? "app" : containers.get(0);
    String policy = failurePolicies(phase).get(0).label();
    List<Item> out = new ArrayList<>();
    out.add(new Item("failurePolicy: " + policy + "\nexecNewPod:\n  containerName: " + container
        + "\n  command: [\"/bin/sh\", \"-c\", \"\"]", "run a command in a pod built from container " + container));
    out.add(new Item("failurePolicy: " + policy + "\ntagImages:\n  - containerName: " + container
        + "\n    to:\n      kind: ImageStreamTag\n      name: \"\"", "tag the image of container " + container));
    return out;
  }

  private static YMap podSpec(Resource dc) {
    YMap spec = dc.root().map("spec");
    YMap template = spec == null ? null : spec.map("template");
    return template == null ? null : template.map("spec");
  }

  private static List<String> names(YMap podSpec, String list) {
    List<String> names = new ArrayList<>();
    YSeq seq = podSpec == null ? null : podSpec.seq(list);
    if (seq != null) {
      for (YNode n : seq.items()) {
        if (n instanceof YMap m && m.string("name") != null && !m.scalar("name").isTemplated()) {
          names.add(m.string("name"));
        }
      }
    }
    return names;
  }
}
