// Which open documents the server has been told about. A document goes to the server only once it looks like
// a manifest or a chart template (manifest.ts); until then its opening, edits and closing stay in the editor,
// so the server never reports on, completes in or hovers over a docker-compose.yml next to Red Hat's YAML
// extension. Pure logic over URIs and text, so that it is tested without VS Code.
import { shouldSend } from './manifest';

/** What the client does with an edit: pass it on, open the document whole on the server, or keep it. */
export type ChangeAction = 'forward' | 'open' | 'hold';

/** A document as the gate sees it. */
export interface GateDocument {
  readonly uri: string;
  readonly languageId: string | undefined;
  /** The path part of the URI, for the extension test. */
  readonly path: string;
  readonly text: string;
}

export class DocumentGate {
  private readonly sent = new Set<string>();

  /** Whether the opening goes to the server; if so the document is known from now on. */
  open(doc: GateDocument): boolean {
    if (!shouldSend(doc.languageId, doc.path, doc.text)) {
      return false;
    }
    this.sent.add(doc.uri);
    return true;
  }

  /**
   * An edit to a document. A known one is forwarded; a held one that now looks like a manifest (say, `kind:`
   * was typed in a new file) must be opened whole, since the server never saw its earlier text.
   */
  change(doc: GateDocument): ChangeAction {
    if (this.sent.has(doc.uri)) {
      return 'forward';
    }
    return this.open(doc) ? 'open' : 'hold';
  }

  /** Whether the closing goes to the server (only for documents it knows). */
  close(uri: string): boolean {
    return this.sent.delete(uri);
  }

  /** Whether the server knows the document, so that hovers, completions and lenses may be asked of it. */
  knows(uri: string): boolean {
    return this.sent.has(uri);
  }

  /** A new server knows nothing. */
  clear(): void {
    this.sent.clear();
  }
}
