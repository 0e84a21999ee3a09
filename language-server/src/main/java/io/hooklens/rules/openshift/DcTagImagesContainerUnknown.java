package io.hooklens.rules.openshift;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.openshift.DcHook;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YScalar;
import io.hooklens.core.yaml.YSeq;
import java.util.List;

@RuleInfo(
    id = "HL308",
    name = "dc-tagimages-container-unknown",
    summary = "A tagImages hook names a container that is not a regular container of the template",
    severity = Severity.ERROR,
    remediation = "Set containerName to the regular container whose image should be tagged.",
    messages = {
        @Message(id = "unknown", text = "No container named \"{0}\" in the template (containers: {1}); the API"
            + " rejects the DeploymentConfig."),
        @Message(id = "init", text = "\"{0}\" is an init container: the API accepts it, but the deployer looks the"
            + " image up only among regular containers ({1}), so {2} fails on every rollout.")
    })
public final class DcTagImagesContainerUnknown implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (DcHook h : DcHook.validatedIn(doc)) {
      YSeq tags = h.tagImages();
      if (tags == null || h.setsBothActions()) {
        continue;
      }
      List<String> containers = h.knownContainerNames("containers");
      List<String> inits = h.knownContainerNames("initContainers");
      if (containers == null || inits == null) {
        continue;
      }
      for (YNode item : tags.items()) {
        YScalar name = item instanceof YMap tag ? tag.scalar("containerName") : null;
        if (name == null || DcHook.isBlank(name) || name.isTemplated() || containers.contains(name.value())) {
          continue;
        }
        if (inits.contains(name.value())) {
          ctx.report(name, "init", name.value(), String.join(", ", containers), h.describe())
              .related(h.containerNameNode("initContainers", name.value()), "the init container");
        } else {
          ctx.report(name, "unknown", name.value(), String.join(", ", containers))
              .related(h.templateListKey("containers"), DcHookContainerNameMissing.CONTAINERS);
        }
      }
    }
  }
}
