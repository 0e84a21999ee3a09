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

@RuleInfo(
    id = "HL306",
    name = "dc-hook-container-name-missing",
    summary = "A DeploymentConfig hook names no container although the template has several",
    severity = Severity.ERROR,
    remediation = "Set containerName to the template container whose image the hook uses.",
    messages = {
        @Message(id = "exec", text = "{0}.execNewPod has no containerName and the template has {1} containers"
            + " ({2}); the name is only filled in for a single-container template, so the API rejects the"
            + " DeploymentConfig."),
        @Message(id = "tag", text = "{0}.tagImages[{1}] has no containerName and the template has {2} containers"
            + " ({3}); the name is only filled in for a single-container template, so the API rejects the"
            + " DeploymentConfig.")
    })
public final class DcHookContainerNameMissing implements Rule {
  static final String CONTAINERS = "the template's containers";

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (DcHook h : DcHook.validatedIn(doc)) {
      YMap ps = h.podSpec();
      YSeq containers = ps == null ? null : ps.seq("containers");
      // With one container the API server fills the name in; with none the template is invalid anyway.
      if (h.hook() == null || containers == null || containers.size() < 2 || h.setsBothActions()) {
        continue;
      }
      int n = containers.size();
      String names = String.join(", ", h.containerNames("containers"));
      YScalar listed = h.templateListKey("containers");
      YMap exec = h.execNewPod();
      if (exec != null) {
        YMap.Entry name = exec.entry("containerName");
        if (name == null) {
          ctx.report(h.hook().entry("execNewPod").key(), "exec", h.describe(), n, names)
              .related(listed, CONTAINERS);
        } else if (DcHook.isBlank(name.value())) {
          ctx.report(name.key(), "exec", h.describe(), n, names).related(listed, CONTAINERS);
        }
      }
      YSeq tags = h.tagImages();
      for (int i = 0; tags != null && i < tags.size(); i++) {
        if (!(tags.get(i) instanceof YMap tag)) {
          continue;
        }
        YMap.Entry name = tag.entry("containerName");
        YNode at = name == null ? tag : name.key();
        if (name == null || DcHook.isBlank(name.value())) {
          ctx.report(at, "tag", h.describe(), i, n, names).related(listed, CONTAINERS);
        }
      }
    }
  }
}
