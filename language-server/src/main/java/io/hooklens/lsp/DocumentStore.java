package io.hooklens.lsp;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.eclipse.lsp4j.TextDocumentContentChangeEvent;

/**
 * The open documents by URI. Only the protocol thread changes it; workers read snapshots. Changing a
 * document and publishing its diagnostics both lock the store, so a diagnostic is never published
 * for a version that an edit has just replaced.
 */
public final class DocumentStore {
  private final ConcurrentMap<String, TextDocument> documents = new ConcurrentHashMap<>();

  public synchronized TextDocument open(String uri, String languageId, int version, String text) {
    TextDocument doc = new TextDocument(uri, languageId, version, text);
    documents.put(uri, doc);
    return doc;
  }

  /** Applies a change; null when the document is not open (a change for it is ignored). */
  public synchronized TextDocument change(String uri, int version, List<TextDocumentContentChangeEvent> changes) {
    TextDocument old = documents.get(uri);
    if (old == null) {
      return null;
    }
    TextDocument doc = old.apply(version, changes);
    documents.put(uri, doc);
    return doc;
  }

  public synchronized TextDocument close(String uri) {
    return documents.remove(uri);
  }

  public TextDocument get(String uri) {
    return documents.get(uri);
  }

  public Collection<TextDocument> all() {
    return List.copyOf(documents.values());
  }

  /**
   * Runs {@code action} if {@code doc} is still the current snapshot of its URI, with no change able
   * to land meanwhile; returns whether it ran.
   */
  public synchronized boolean ifCurrent(TextDocument doc, Runnable action) {
    if (documents.get(doc.uri()) != doc) {
      return false;
    }
    action.run();
    return true;
  }
}
