package io.hooklens.core.yaml;

import java.util.BitSet;
import java.util.List;

/**
 * The result of reading a file: its documents and what was wrong with the text. Never an exception.
 *
 * @param templated the text held Go template actions, which were masked before reading
 * @param hiddenOutputLines lines where a masked action writes content the reader could not see
 */
public record ParsedFile(SourceText source, List<YamlDocument> documents, List<ParseProblem> problems,
    boolean templated, BitSet hiddenOutputLines) {

  /** A file read as it is, with nothing masked. */
  public ParsedFile(SourceText source, List<YamlDocument> documents, List<ParseProblem> problems) {
    this(source, documents, problems, false, new BitSet());
  }

  /**
   * A scalar's value for messages: in a masked template, the original text, so that a name reads
   * {@code {{ include "app.fullname" . }}-web} rather than placeholder letters.
   */
  public String display(YScalar s) {
    if (s == null || !templated || s.value().indexOf(TemplateMask.PLACEHOLDER) < 0
        || s.range().start().line() != s.range().end().line()) {
      return s == null ? null : s.value();
    }
    int from = source.offset(s.range().start());
    int to = source.offset(s.range().end());
    String raw = source.text().substring(from, Math.max(from, to)).strip();
    if (raw.length() >= 2 && (raw.charAt(0) == '"' || raw.charAt(0) == '\'') && raw.endsWith(raw.substring(0, 1))) {
      raw = raw.substring(1, raw.length() - 1);
    }
    return raw;
  }

  /**
   * Whether template output the reader could not see may add to a node: a mapping without
   * {@code restartPolicy} around an {@code {{ include }}} line may have one once rendered.
   */
  public boolean hidesContent(Range range) {
    int next = hiddenOutputLines.nextSetBit(range.start().line());
    return next >= 0 && next <= range.end().line();
  }
}
