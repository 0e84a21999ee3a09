package io.hooklens.core.engine;

import io.hooklens.core.model.HookDocument;

/**
 * A check. Rules are pure: they read the document and the context and report through the context;
 * no I/O, no clock, no mutable state. Each implementation carries {@link RuleInfo}.
 */
public interface Rule {
  void check(HookDocument doc, RuleContext ctx);
}
