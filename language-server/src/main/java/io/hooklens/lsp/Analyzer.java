package io.hooklens.lsp;

import io.hooklens.core.engine.Config;
import io.hooklens.core.engine.LintResult;
import io.hooklens.core.engine.Linter;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.yaml.DocumentChunks;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Reads document snapshots with the engine and keeps the newest model of each open document, so that
 * requests about a document (its symbols, hover, inlay hints, completion) do not read it again after
 * diagnostics did, and the next version's read takes the YAML documents that an edit left unchanged from it.
 */
final class Analyzer {
  /**
   * A read snapshot.
   *
   * @param kubernetesLike whether the server reports on it at all ({@link ManifestFiles})
   * @param chunks what the read of the document's next version reuses
   */
  record Parsed(TextDocument document, HookDocument model, boolean kubernetesLike, DocumentChunks chunks) {}

  private final Linter linter;
  private final ConcurrentMap<String, Parsed> latest = new ConcurrentHashMap<>();

  Analyzer(Linter linter) {
    this.linter = linter;
  }

  /** The model of a snapshot, read now unless it already was. */
  Parsed parse(TextDocument doc) {
    Parsed p = latest.get(doc.uri());
    if (p != null && p.document() == doc) {
      return p;
    }
    String name = ManifestFiles.lintName(doc);
    // An edit usually leaves all documents of a file but one as they were: those are not read again.
    Linter.Reread read = linter.parse(name, doc.text(), p == null ? DocumentChunks.NONE : p.chunks());
    HookDocument model = read.document();
    Parsed parsed = new Parsed(doc, model, ManifestFiles.kubernetesLike(model, ManifestFiles.isJson(name)),
        read.chunks());
    latest.merge(doc.uri(), parsed, (old, neu) -> neu.document().version() >= old.document().version() ? neu : old);
    return parsed;
  }

  /** The newest model read of a document, of whatever version; null when none was read. */
  Parsed cached(String uri) {
    return latest.get(uri);
  }

  /**
   * Reads text that stands for part of a document (one YAML document of it, say) without keeping it; the name
   * decides JSON and template masking as for the whole document.
   */
  HookDocument read(TextDocument doc, String text) {
    return linter.parse(ManifestFiles.lintName(doc), text);
  }

  /** Runs the rules on a read snapshot. */
  LintResult lint(Parsed parsed, Config config) {
    return lint(parsed.model(), config);
  }

  /** Runs the rules on manifests read elsewhere, such as a rendered chart's. */
  LintResult lint(HookDocument model, Config config) {
    return linter.lint(model, config);
  }

  void forget(String uri) {
    latest.remove(uri);
  }
}
