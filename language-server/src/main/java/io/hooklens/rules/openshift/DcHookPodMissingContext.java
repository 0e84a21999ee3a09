package io.hooklens.rules.openshift;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.openshift.DcHook;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YScalar;
import io.hooklens.core.yaml.YSeq;
import java.util.ArrayList;
import java.util.List;

@RuleInfo(
    id = "HL318",
    name = "dc-hook-pod-missing-context",
    summary = "An execNewPod hook's container relies on settings the hook pod does not inherit",
    severity = Severity.WARNING,
    remediation = "Give the hook what it needs itself: env entries in execNewPod.env, arguments in"
        + " execNewPod.command; a hook that needs the app's service account, tolerations or affinity cannot run as"
        + " an execNewPod hook.",
    messages = @Message(id = "missing", text = "The hook pod is built from container \"{0}\" but does not get {1};"
        + " the deployer copies only its image, env, working directory, resources, security context and the listed"
        + " volumes, plus the template's nodeSelector and pull secrets, so the hook may behave differently from"
        + " the app."))
public final class DcHookPodMissingContext implements Rule {
  /** One setting the hook pod lacks: how to name it and where it is written. */
  private record Missing(String text, YNode at) {}

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Resource r : doc.resources()) {
      if (!DcHook.isDeploymentConfig(r)) {
        continue;
      }
      for (DcHook h : DcHook.of(r)) {
        YMap container = h.runsOnRollout() ? h.execContainer() : null;
        if (container == null) {
          continue;
        }
        List<Missing> missing = missing(container, h.podSpec());
        if (missing.isEmpty()) {
          continue;
        }
        YMap exec = h.execNewPod();
        YNode at = exec.has("containerName") ? exec.get("containerName") : h.hook().entry("execNewPod").key();
        String name = container.string("name");
        var reported = ctx.report(at, "missing", name == null ? "containers[0]" : name,
            join(missing.stream().map(Missing::text).toList()));
        for (Missing m : missing) {
          reported.related(m.at(), "not copied to the hook pod");
        }
      }
    }
  }

  private static List<Missing> missing(YMap container, YMap podSpec) {
    List<Missing> out = new ArrayList<>();
    if (nonEmptySeq(container, "envFrom")) {
      out.add(new Missing("its envFrom (environment from ConfigMaps or Secrets)", container.entry("envFrom").key()));
    }
    if (nonEmptySeq(container, "args")) {
      out.add(new Missing("its args", container.entry("args").key()));
    }
    for (String field : List.of("serviceAccountName", "serviceAccount")) {
      YScalar sa = podSpec.scalar(field);
      if (sa != null && sa.type() == YScalar.Type.STRING && !sa.isTemplated() && !sa.value().isEmpty()
          && !sa.value().equals("default")) {
        out.add(new Missing("the template's " + field + " \"" + sa.value() + "\" (it runs as the default service"
            + " account)", sa));
        break;
      }
    }
    if (nonEmptySeq(podSpec, "tolerations")) {
      out.add(new Missing("the template's tolerations", podSpec.entry("tolerations").key()));
    }
    YMap affinity = podSpec.map("affinity");
    if (affinity != null && affinity.size() > 0) {
      out.add(new Missing("the template's affinity", podSpec.entry("affinity").key()));
    }
    return out;
  }

  private static boolean nonEmptySeq(YMap m, String key) {
    YSeq s = m.seq(key);
    return s != null && s.size() > 0;
  }

  /** {@code a}, {@code a and b}, {@code a, b and c}. */
  private static String join(List<String> parts) {
    if (parts.size() == 1) {
      return parts.get(0);
    }
    return String.join(", ", parts.subList(0, parts.size() - 1)) + " and " + parts.get(parts.size() - 1);
  }
}
