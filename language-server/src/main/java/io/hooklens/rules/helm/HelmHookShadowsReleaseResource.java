package io.hooklens.rules.helm;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.yaml.YNode;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

@RuleInfo(
    id = "HL211",
    name = "helm-hook-shadows-release-resource",
    summary = "A hook creates the same object that the release installs as a normal resource",
    severity = Severity.WARNING,
    remediation = "Give the hook object a name of its own.",
    messages = @Message(id = "shadows", text = "This hook creates {0}, which the release also installs as a normal"
        + " resource (line {1}). The two collide: depending on the event and the Helm version, creating one fails"
        + " because the other exists, or the hook deletes or overwrites the release's copy."))
public final class HelmHookShadowsReleaseResource implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    Map<Resource, RegisteredHooks.Identity> hooks = new LinkedHashMap<>();
    for (Resource r : doc.resources()) {
      if (RegisteredHooks.events(r).isPresent() && RegisteredHooks.readByHelm(doc, r)) {
        RegisteredHooks.Identity id = RegisteredHooks.identity(r);
        if (id != null) {
          hooks.put(r, id);
        }
      }
    }
    if (hooks.isEmpty()) {
      return; // most files: no need to work out every object's identity
    }
    Map<RegisteredHooks.Identity, Resource> release = new HashMap<>();
    for (Resource r : doc.resources()) {
      if (!RegisteredHooks.hasHookKey(r) && RegisteredHooks.readByHelm(doc, r)) {
        RegisteredHooks.Identity id = RegisteredHooks.identity(r);
        if (id != null) {
          release.putIfAbsent(id, r);
        }
      }
    }
    for (var hook : hooks.entrySet()) {
      Resource normal = release.get(hook.getValue());
      if (normal != null) {
        YNode other = RegisteredHooks.nameNode(normal);
        String display = hook.getValue().display();
        ctx.report(RegisteredHooks.nameNode(hook.getKey()), "shadows", display, other.range().start().line() + 1)
            .related(other, "the release resource " + display);
      }
    }
  }
}
