package io.hooklens.lsp;

import io.hooklens.core.model.Duration;
import io.hooklens.core.model.Handler;
import io.hooklens.core.model.Hook;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.HookDurations;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.helm.DeletePolicy;
import io.hooklens.core.model.helm.HelmAnnotations;
import io.hooklens.core.model.helm.HookPlan;
import io.hooklens.core.model.openshift.DcHook;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YScalar;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.lsp4j.Hover;
import org.eclipse.lsp4j.MarkupContent;
import org.eclipse.lsp4j.MarkupKind;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;

/**
 * Hover on the places where hooks are declared: a container's {@code preStop}/{@code postStart} (what runs
 * when, and a preStop hook's budget as a timeline), the {@code helm.sh/*} annotations of a Helm hook (its
 * events, its place in each in Helm's order, its delete policies), and a DeploymentConfig hook's phase and
 * failure policy.
 */
final class HoverService {
  private static final String TITLE_SUFFIX = " · hooklens";

  /** The hover at a position of a read snapshot, or null. */
  Hover hover(Analyzer.Parsed parsed, Position pos) {
    if (!parsed.kubernetesLike()) {
      return null;
    }
    HookDocument model = parsed.model();
    Positions positions = new Positions(model.source(), parsed.document().text());
    for (Handler h : model.handlers()) {
      Range r = positions.range(h.key().range());
      if (contains(r, pos)) {
        return hover(handler(h), r);
      }
    }
    for (Resource res : model.resources()) {
      YMap annotations = res.parent() == null ? res.annotations() : null;
      if (annotations != null) {
        for (YMap.Entry e : annotations.entries()) {
          Range r = entryRange(e, positions);
          if (HelmAnnotations.KNOWN_KEYS.contains(e.key().value()) && contains(r, pos)) {
            return hover(helm(model, res, e.key().value()), r);
          }
        }
      }
      if (DcHook.isDeploymentConfig(res)) {
        for (DcHook h : DcHook.of(res)) {
          Range key = positions.range(h.key().range());
          if (contains(key, pos)) {
            return hover(dcPhase(h), key);
          }
          YMap.Entry policy = h.hook() == null ? null : h.hook().entry("failurePolicy");
          if (policy != null && contains(entryRange(policy, positions), pos)) {
            return hover(dcPolicy(h), entryRange(policy, positions));
          }
        }
      }
    }
    return null;
  }

  private static Hover hover(String markdown, Range range) {
    return markdown == null ? null : new Hover(new MarkupContent(MarkupKind.MARKDOWN, markdown), range);
  }

  private static Range entryRange(YMap.Entry e, Positions positions) {
    YNode v = e.value();
    Range key = positions.range(e.key().range());
    Range value = positions.range(v.range());
    boolean sameLine = value.getEnd().getLine() == key.getStart().getLine() && compare(value.getEnd(),
        key.getEnd()) > 0;
    return sameLine ? new Range(key.getStart(), value.getEnd()) : key;
  }

  static boolean contains(Range r, Position p) {
    return compare(r.getStart(), p) <= 0 && compare(p, r.getEnd()) <= 0;
  }

  private static int compare(Position a, Position b) {
    return a.getLine() != b.getLine() ? Integer.compare(a.getLine(), b.getLine())
        : Integer.compare(a.getCharacter(), b.getCharacter());
  }

  // ---- container lifecycle hooks ----

  private static String handler(Handler h) {
    StringBuilder md = new StringBuilder();
    md.append("**").append(h.hook().field()).append("** of container `").append(h.container().displayName())
        .append('`').append(TITLE_SUFFIX).append("\n\n");
    if (h.hook() == Hook.PRE_STOP) {
      md.append(HookFacts.PRE_STOP).append("\n\n");
      HookFacts.Budget b = HookFacts.Budget.of(h);
      md.append("Budget: ").append(describe(b.duration())).append("; grace period ")
          .append(h.pod().describeGrace()).append(".\n\n```text\n");
      b.timeline().forEach(l -> md.append(l).append('\n'));
      md.append("```\n");
    } else {
      md.append(HookFacts.POST_START);
      Duration d = HookDurations.of(h);
      if (d.unbounded() || d.seconds() > 0) {
        md.append("\n\nEstimated duration: ").append(describe(d)).append(", during which the container is not"
            + " Running.");
      }
    }
    return md.toString();
  }

  private static String describe(Duration d) {
    if (d.unbounded()) {
      return "the hook never ends on its own";
    }
    if (!d.exact() && d.seconds() == 0) {
      return "the hook's duration is unknown (an HTTP call or a command)";
    }
    return "the hook needs " + d.describe() + (d.exact() ? "" : " (what its sleeps add up to)");
  }

  // ---- Helm annotations ----

  private static String helm(HookDocument doc, Resource r, String key) {
    StringBuilder md = new StringBuilder("**").append(key).append("**").append(TITLE_SUFFIX).append("\n\n");
    YScalar hookValue = HelmAnnotations.annotation(r, HelmAnnotations.HOOK);
    switch (key) {
      case HelmAnnotations.HOOK -> md.append("Makes this ").append(r.kind() == null ? "resource" : r.kind())
          .append(" a Helm hook: Helm creates it at the events listed instead of with the release.\n\n");
      case HelmAnnotations.WEIGHT -> md.append("Helm runs the hooks of an event by weight, lower first, then by"
          + " name (the kind only breaks ties between equal names). The value is a string holding an integer;"
          + " anything else counts as 0.\n\n");
      case HelmAnnotations.DELETE_POLICY -> md.append("When Helm deletes the hook object. Without this annotation"
          + " it applies before-hook-creation.\n\n");
      case HelmAnnotations.OUTPUT_LOG_POLICY -> md.append("When Helm prints the hook's logs: hook-succeeded,"
          + " hook-failed. Helm reads it from 3.18 on, for Jobs and Pods only.\n\n");
      case HelmAnnotations.RESOURCE_POLICY -> md.append("`keep`: helm uninstall, and an upgrade the resource has"
          + " left the chart in, leave it in the cluster. A hook's delete policies still delete a hook object.\n\n");
      default -> md.append("A Helm 2 annotation; Helm 3 and 4 ignore it.\n\n");
    }
    if (hookValue == null || key.equals(HelmAnnotations.RESOURCE_POLICY)
        || key.equals(HelmAnnotations.DELETE_TIMEOUT)) {
      return md.toString();
    }
    if (hookValue.isTemplated()) {
      return md.append("The events come from a template, so the hook's place is known only once rendered.")
          .toString();
    }
    List<HookPlan.Place> places = HookPlan.places(doc, r);
    for (HelmAnnotations.Item item : HelmAnnotations.items(hookValue)) {
      String meaning = HookFacts.event(item.normalized());
      md.append("- `").append(item.normalized().isEmpty() ? "(empty)" : item.normalized()).append("`: ")
          .append(meaning == null ? "not an event Helm knows: Helm skips this resource altogether" : meaning)
          .append('\n');
    }
    for (HookPlan.Place p : places) {
      md.append("\n").append(p.event()).append(" in this file, in Helm's order (weight, then name)")
          .append(p.certain() ? "" : "; template values may change it once rendered").append(":\n\n");
      for (int i = 0; i < p.order().size(); i++) {
        Resource o = p.order().get(i);
        String hook = HookFacts.displayName(doc, o) + ", weight " + weight(o);
        md.append(i + 1).append(". ").append(o == r ? "**" + hook + "** ← this hook" : hook).append('\n');
      }
    }
    step(doc, hookValue).ifPresent(s -> {
      md.append("\nDelete policies: ");
      if (s.deletePolicies().isEmpty()) {
        md.append("none Helm knows, so it never deletes the hook object");
      }
      List<String> parts = new ArrayList<>();
      for (DeletePolicy policy : s.deletePolicies()) {
        parts.add("`" + policy.annotation() + "`" + (s.defaultPolicy() ? " (default)" : "") + ": "
            + HookFacts.deletePolicy(policy));
      }
      md.append(String.join("; ", parts)).append(".\n\n").append(s.awaited()
          ? "Helm waits for this " + s.kind() + " to finish before the next hook."
          : "Helm does not wait for a " + (s.kind().isEmpty() ? "resource without a kind" : s.kind())
              + ": it counts as done once created.");
    });
    return md.toString();
  }

  private static String weight(Resource r) {
    YScalar w = HelmAnnotations.annotation(r, HelmAnnotations.WEIGHT);
    return w != null && w.isTemplated() ? "from a template" : Long.toString(HelmAnnotations.weight(r));
  }

  /** The hook as Helm's plan has it (delete policies, whether Helm waits), found by its annotation value. */
  private static Optional<HookPlan.Step> step(HookDocument doc, YScalar hookValue) {
    return HookPlan.of(doc).stream().flatMap(e -> e.steps().stream())
        .filter(s -> s.source().equals(hookValue.range())).findFirst();
  }

  // ---- DeploymentConfig hooks ----

  private static String dcPhase(DcHook h) {
    StringBuilder md = new StringBuilder("**").append(h.phase()).append("** hook of DeploymentConfig `")
        .append(h.owner().name() == null ? "(no name)" : h.owner().name()).append('`').append(TITLE_SUFFIX)
        .append("\n\nThe deployer runs it ").append(HookFacts.dcPhase(h.phase().key())).append(", in a pod of its own");
    md.append(h.runsOnRollout() ? "." : "; but not in this place: " + h.describe()
        + " does not run on this strategy's rollouts.");
    String policy = h.policy();
    if (policy != null && HookFacts.dcPolicy(policy) != null) {
      md.append("\n\n`failurePolicy: ").append(policy).append("`: ").append(HookFacts.dcPolicy(policy)).append('.');
    }
    return md.toString();
  }

  private static String dcPolicy(DcHook h) {
    String policy = h.policy();
    StringBuilder md = new StringBuilder("**failurePolicy**").append(TITLE_SUFFIX).append("\n\n");
    String meaning = policy == null ? null : HookFacts.dcPolicy(policy);
    md.append(meaning == null ? "Abort, Retry or Ignore; the deployer treats any other value as a failed rollout."
        : "`" + policy + "`: " + meaning + ".");
    md.append("\n\nRecommended for a `").append(h.phase()).append("` hook: `")
        .append(DcCompletions.failurePolicies(h.phase().key()).get(0).label()).append("`.");
    return md.toString();
  }
}
