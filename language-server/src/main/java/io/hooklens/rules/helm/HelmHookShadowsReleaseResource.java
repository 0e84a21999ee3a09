package io.hooklens.rules.helm;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.engine.Targets;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.helm.RegisteredHooks;
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
    messages = {
        @Message(id = "create", text = "This hook creates {0}, which the release also installs as a normal resource"
            + " (line {1}). The two collide: whichever {2} creates second fails because the object exists, unless"
            + " the hook's before-hook-creation policy deletes the release's copy and puts the hook's in its place."),
        @Message(id = "apply", text = "This hook creates {0}, which the release also installs as a normal resource"
            + " (line {1}). The two collide: {2} applies whichever comes second over the other with server-side"
            + " apply, or the hook's before-hook-creation policy deletes the release's copy and puts the hook's in"
            + " its place."),
        @Message(id = "argo", text = "This hook creates {0}, which the chart also has as a normal resource (line"
            + " {1}). Argo CD keeps only one manifest per group, kind, namespace and name (it reports"
            + " RepeatedResourceWarning), so either the hook or the normal resource is dropped.")
    })
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
    Targets targets = ctx.targets();
    String message = targets.argoCd() ? "argo" : HookRunner.appliesServerSide(targets) ? "apply" : "create";
    for (var hook : hooks.entrySet()) {
      Resource normal = release.get(hook.getValue());
      if (normal != null) {
        YNode other = FindingPlaces.nameNode(normal);
        String display = hook.getValue().display();
        ctx.report(FindingPlaces.nameNode(hook.getKey()), message, display, other.range().start().line() + 1,
            HookRunner.name(targets))
            .related(other, "the release resource " + display);
      }
    }
  }
}
