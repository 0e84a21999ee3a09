package io.hooklens.rules.openshift;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.openshift.DcHook;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YScalar;
import io.hooklens.core.yaml.YSeq;

@RuleInfo(
    id = "HL309",
    name = "dc-tagimages-target",
    summary = "A tagImages target is not an ImageStreamTag with a name",
    severity = Severity.ERROR,
    remediation = "Write the target as to: {kind: ImageStreamTag, name: <stream>:<tag>}.",
    messages = {
        @Message(id = "noTarget", text = "{0}.tagImages[{1}] has no to; the API requires the ImageStreamTag to"
            + " write and rejects the DeploymentConfig."),
        @Message(id = "noKind", text = "tagImages to has no kind; it is not filled in, and the API requires kind:"
            + " ImageStreamTag."),
        @Message(id = "kind", text = "tagImages to.kind must be ImageStreamTag; the API rejects \"{0}\"."),
        @Message(id = "noName", text = "tagImages to has no name; the API requires the image stream tag to write,"
            + " such as app:deployed.")
    })
public final class DcTagImagesTargetInvalid implements Rule {
  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (DcHook h : DcHook.validatedIn(doc)) {
      YSeq tags = h.tagImages();
      if (tags == null || h.setsBothActions()) {
        continue;
      }
      for (int i = 0; i < tags.size(); i++) {
        if (!(tags.get(i) instanceof YMap tag)) {
          continue;
        }
        YMap.Entry to = tag.entry("to");
        if (to == null || DcHook.isBlank(to.value())) {
          ctx.report(to == null ? tag : to.key(), "noTarget", h.describe(), i);
          continue;
        }
        if (!(to.value() instanceof YMap target)) {
          continue;
        }
        YMap.Entry kind = target.entry("kind");
        if (kind == null || DcHook.isBlank(kind.value())) {
          ctx.report(kind == null ? to.key() : kind.key(), "noKind");
        } else if (kind.value() instanceof YScalar k && !k.isTemplated() && !k.value().equals("ImageStreamTag")) {
          ctx.report(k, "kind", k.value());
        }
        YMap.Entry name = target.entry("name");
        if (name == null || DcHook.isBlank(name.value())) {
          ctx.report(name == null ? to.key() : name.key(), "noName");
        }
      }
    }
  }
}
