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
    id = "HL317",
    name = "dc-hook-volume-unknown",
    summary = "An execNewPod hook lists a volume that the pod template does not have",
    severity = Severity.WARNING,
    remediation = "List only volumes declared in spec.template.spec.volumes, or add the volume to the template.",
    messages = @Message(id = "unknown", text = "Volume \"{0}\" is not a volume of the pod template ({1}); the"
        + " deployer silently leaves it out, so the hook pod runs without it."))
public final class DcHookVolumeUnknown implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Resource r : doc.resources()) {
      if (!DcHook.isDeploymentConfig(r)) {
        continue;
      }
      for (DcHook h : DcHook.of(r)) {
        YMap exec = h.runsOnRollout() ? h.execNewPod() : null;
        YSeq wanted = exec == null ? null : exec.seq("volumes");
        List<String> declared = wanted == null ? null : declaredVolumes(h.podSpec());
        if (declared == null) {
          continue;
        }
        for (YNode n : wanted.items()) {
          if (n instanceof YScalar s && s.type() == YScalar.Type.STRING && !s.value().isEmpty()
              && !s.isTemplated() && !declared.contains(s.value())) {
            RuleContext.Reported reported = ctx.report(s, "unknown", s.value(),
                declared.isEmpty() ? "it has none" : "it has " + String.join(", ", declared));
            YScalar volumes = h.templateListKey("volumes");
            if (volumes != null) {
              reported.related(volumes, "the pod template's volumes");
            }
          }
        }
      }
    }
  }

  /** Names of the template's volumes; null when the list or a name is unknown. */
  private static List<String> declaredVolumes(YMap podSpec) {
    if (podSpec == null) {
      return null;
    }
    YNode volumes = podSpec.get("volumes");
    List<String> names = new ArrayList<>();
    if (volumes == null || volumes instanceof YScalar v && v.type() == YScalar.Type.NULL) {
      return names;
    }
    if (!(volumes instanceof YSeq seq)) {
      return null;
    }
    for (YNode item : seq.items()) {
      YScalar name = item instanceof YMap m ? m.scalar("name") : null;
      if (name == null || name.isTemplated()) {
        return null;
      }
      names.add(name.value());
    }
    return names;
  }
}
