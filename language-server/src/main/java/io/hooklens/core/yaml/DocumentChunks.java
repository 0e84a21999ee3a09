package io.hooklens.core.yaml;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A read YAML stream cut at its {@code ---} lines, kept so that the next read of an edited version of
 * the same text can take every chunk whose text, first line and first document index are unchanged as
 * it was read ({@link YamlReader#read(SourceText, DocumentChunks)}). Immutable, so reads of several
 * versions may share it.
 */
public final class DocumentChunks {
  /** Nothing read before: every chunk is read. */
  public static final DocumentChunks NONE = new DocumentChunks(null, "", List.of());

  /**
   * What one chunk of the text read to.
   *
   * @param start UTF-16 offset of its first character in the text
   * @param end UTF-16 offset after its last character
   */
  record Chunk(int startLine, int start, int end, int firstIndex, List<YamlDocument> documents,
      List<ParseProblem> problems) {
    /** Whether reading it went wrong in a way that may depend on what follows it in the stream. */
    boolean broken() {
      return problems.stream().anyMatch(p -> p.kind() == ParseProblem.Kind.SYNTAX
          || p.kind() == ParseProblem.Kind.LIMIT);
    }
  }

  private final ParsedFile parsed;
  private final String text;
  private final Map<Integer, Chunk> byStartLine = new HashMap<>();

  DocumentChunks(ParsedFile parsed, String text, List<Chunk> chunks) {
    this.parsed = parsed;
    this.text = text;
    for (Chunk c : chunks) {
      byStartLine.put(c.startLine(), c);
    }
  }

  /** The whole file as read, the same as {@link YamlReader#read(SourceText, boolean)} gives. */
  public ParsedFile parsed() {
    return parsed;
  }

  /**
   * The chunk read before with this first line, index and text, placed at its offsets in the new text, or null.
   * An edit above it that keeps the number of lines moves it within the text, and the next read compares it
   * there.
   */
  Chunk reusable(int startLine, int firstIndex, String newText, int start, int end) {
    Chunk c = byStartLine.get(startLine);
    if (c == null || c.firstIndex() != firstIndex || c.end() - c.start() != end - start
        || !text.regionMatches(c.start(), newText, start, end - start)) {
      return null;
    }
    return new Chunk(startLine, start, end, firstIndex, c.documents(), c.problems());
  }
}
