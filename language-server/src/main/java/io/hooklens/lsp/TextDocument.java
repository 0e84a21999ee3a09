package io.hooklens.lsp;

import java.util.Arrays;
import java.util.List;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.TextDocumentContentChangeEvent;

/**
 * One open document as the client has it: an immutable snapshot of its text and version. Edits
 * make a new snapshot, so a lint running on a worker thread never sees text change under it.
 */
public final class TextDocument {
  private final String uri;
  private final String languageId;
  private final int version;
  private final String text;
  private volatile int[] lineStarts;

  public TextDocument(String uri, String languageId, int version, String text) {
    this.uri = uri;
    this.languageId = languageId;
    this.version = version;
    this.text = text;
  }

  public String uri() {
    return uri;
  }

  public String languageId() {
    return languageId;
  }

  public int version() {
    return version;
  }

  public String text() {
    return text;
  }

  /**
   * Applies the changes of one {@code didChange}, in order, each to the result of the one before,
   * as LSP requires. A change without a range replaces the whole text.
   */
  public TextDocument apply(int newVersion, List<TextDocumentContentChangeEvent> changes) {
    TextDocument doc = this;
    for (TextDocumentContentChangeEvent change : changes) {
      String inserted = change.getText() == null ? "" : change.getText();
      Range range = change.getRange();
      if (range == null) {
        doc = new TextDocument(uri, languageId, newVersion, inserted);
        continue;
      }
      int start = doc.offsetAt(range.getStart());
      int end = Math.max(start, doc.offsetAt(range.getEnd()));
      String t = doc.text;
      doc = new TextDocument(uri, languageId, newVersion, t.substring(0, start) + inserted + t.substring(end));
    }
    return doc.version == newVersion ? doc : new TextDocument(uri, languageId, newVersion, doc.text);
  }

  /**
   * The UTF-16 offset of an LSP position. Java strings count UTF-16 units as LSP does, so the column
   * is used as it is; as the protocol says, a line past the end means the end of the text, and a
   * column past the end of a line means the end of that line (before its line break).
   */
  public int offsetAt(Position p) {
    int[] starts = lineStarts();
    int line = p.getLine();
    if (line < 0) {
      return 0;
    }
    if (line >= starts.length) {
      return text.length();
    }
    int start = starts[line];
    int end = lineContentEnd(line);
    return start + Math.max(0, Math.min(p.getCharacter(), end - start));
  }

  /** The number of lines; a text ending in a line break has an empty last line. */
  public int lineCount() {
    return lineStarts().length;
  }

  /** Where a line's content ends: before its {@code \n}, {@code \r\n} or {@code \r}. */
  private int lineContentEnd(int line) {
    int[] starts = lineStarts();
    int end = line + 1 < starts.length ? starts[line + 1] : text.length();
    if (end > starts[line] && text.charAt(end - 1) == '\n') {
      end--;
    }
    if (end > starts[line] && text.charAt(end - 1) == '\r') {
      end--;
    }
    return end;
  }

  /** Line starts, computed on first use: most snapshots are replaced before anyone asks. */
  private int[] lineStarts() {
    int[] starts = lineStarts;
    if (starts == null) {
      starts = new int[16];
      int n = 1;
      for (int i = 0; i < text.length(); i++) {
        char c = text.charAt(i);
        if (c == '\n' || (c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n'))) {
          if (n == starts.length) {
            starts = Arrays.copyOf(starts, n * 2);
          }
          starts[n++] = i + 1;
        }
      }
      starts = Arrays.copyOf(starts, n);
      lineStarts = starts;
    }
    return starts;
  }
}
