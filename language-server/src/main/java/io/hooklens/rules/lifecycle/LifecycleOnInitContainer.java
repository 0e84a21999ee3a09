package io.hooklens.rules.lifecycle;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.Container;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YScalar;

@RuleInfo(
    id = "HL118",
    name = "lifecycle-on-init-container",
    summary = "An init container that is not a sidecar sets lifecycle",
    severity = Severity.ERROR,
    remediation = "Remove lifecycle from the init container, or add restartPolicy: Always if it is meant to run"
        + " as a sidecar for the life of the pod.",
    messages = {
        @Message(id = "forbidden", text = "Init container \"{0}\" sets lifecycle, which the API allows only"
            + " on sidecar init containers (restartPolicy: Always); the pod is rejected."),
        @Message(id = "misspelt", text = "Init container \"{0}\" sets lifecycle but misspells restartPolicy as"
            + " \"{1}\": the API drops the unknown field, so the container is no sidecar, and a lifecycle on"
            + " it gets the pod rejected.")
    })
public final class LifecycleOnInitContainer implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Container c : doc.containers()) {
      if (c.kind() != Container.Kind.INIT || c.isSidecar()) {
        continue;
      }
      YScalar restartPolicy = c.node().scalar("restartPolicy");
      if (restartPolicy != null ? restartPolicy.isTemplated() : c.hidesContent()) {
        continue;
      }
      YMap.Entry misspelt = c.misspeltSidecar();
      if (misspelt != null) {
        ctx.report(misspelt.key(), "misspelt", c.displayName(), misspelt.key().value());
        continue;
      }
      YMap.Entry lifecycle = c.node().entry("lifecycle");
      if (lifecycle != null && !(lifecycle.value() instanceof YScalar s && s.type() == YScalar.Type.NULL)) {
        ctx.report(lifecycle.key(), "forbidden", c.displayName());
      }
    }
  }
}
