package io.hooklens.core.engine;

import io.hooklens.core.yaml.Range;

/**
 * Replaces the text of a range with new text; an empty range inserts. Positions are those of the
 * engine (code-point columns, the byte-order mark not counted), so they convert like a finding's.
 */
public record TextEdit(Range range, String newText) {}
