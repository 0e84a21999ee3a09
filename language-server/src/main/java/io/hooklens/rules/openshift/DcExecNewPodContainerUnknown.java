package io.hooklens.rules.openshift;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.openshift.DcHook;
import io.hooklens.core.model.openshift.FailurePolicy;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YScalar;
import java.util.List;

@RuleInfo(
    id = "HL307",
    name = "dc-execnewpod-container-unknown",
    summary = "An execNewPod hook names a container that is not a regular container of the template",
    severity = Severity.ERROR,
    remediation = "Set containerName to one of the template's regular containers; the hook pod takes its image,"
        + " environment and resources from it.",
    messages = {
        @Message(id = "unknown", text = "No container named \"{0}\" in the template (containers: {1}). The API does"
            + " not check this, but the deployer cannot build the hook pod, so {2} fails on every rollout."),
        @Message(id = "unknownIgnored", text = "No container named \"{0}\" in the template (containers: {1}). The"
            + " API does not check this, but the deployer cannot build the hook pod, so {2} fails on every rollout;"
            + " with failurePolicy Ignore the rollout goes on without it, leaving only a warning event."),
        @Message(id = "init", text = "\"{0}\" is an init container; the deployer builds the hook pod only from"
            + " regular containers ({1}), so {2} fails on every rollout. The API does not check this."),
        @Message(id = "initIgnored", text = "\"{0}\" is an init container; the deployer builds the hook pod only"
            + " from regular containers ({1}), so {2} fails on every rollout; with failurePolicy Ignore the rollout"
            + " goes on without it, leaving only a warning event.")
    })
public final class DcExecNewPodContainerUnknown implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (DcHook h : DcHook.validatedIn(doc)) {
      // With tagImages as well the API rejects the hook, and the deployer would run tagImages instead.
      YMap exec = h.setsBothActions() ? null : h.execNewPod();
      YScalar name = exec == null ? null : exec.scalar("containerName");
      if (name == null || DcHook.isBlank(name) || name.isTemplated()) {
        continue;
      }
      List<String> containers = h.knownContainerNames("containers");
      if (containers == null || containers.contains(name.value())) {
        continue;
      }
      List<String> inits = h.knownContainerNames("initContainers");
      boolean init = inits != null && inits.contains(name.value());
      YScalar policy = h.failurePolicy();
      boolean ignored = policy != null && FailurePolicy.parse(policy.value()) == FailurePolicy.IGNORE;
      String id = (init ? "init" : "unknown") + (ignored ? "Ignored" : "");
      RuleContext.Reported reported = ctx.report(name, id, name.value(), String.join(", ", containers), h.describe());
      if (init) {
        reported.related(h.containerNameNode("initContainers", name.value()), "the init container");
      } else {
        reported.related(h.templateListKey("containers"), DcHookContainerNameMissing.CONTAINERS);
      }
    }
  }
}
