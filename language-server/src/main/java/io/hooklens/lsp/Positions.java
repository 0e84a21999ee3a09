package io.hooklens.lsp;

import io.hooklens.core.yaml.SourceText;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;

/**
 * Turns the engine's positions (columns in code points, the byte-order mark dropped) into LSP
 * positions (columns in UTF-16 units of the text as the client has it).
 */
final class Positions {
  private final SourceText source;
  private final boolean bom;

  /**
   * @param source the text the engine read
   * @param clientText the text as the client has it, which may still start with a byte-order mark
   */
  Positions(SourceText source, String clientText) {
    this.source = source;
    this.bom = clientText.startsWith("\uFEFF");
  }

  Position position(io.hooklens.core.yaml.Position p) {
    int shift = bom && p.line() == 0 ? 1 : 0;
    return new Position(p.line(), source.utf16Column(p) + shift);
  }

  Range range(io.hooklens.core.yaml.Range r) {
    return new Range(position(r.start()), position(r.end()));
  }
}
