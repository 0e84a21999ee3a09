package io.hooklens.core.engine;

import io.hooklens.core.yaml.ParsedFile;
import io.hooklens.core.yaml.SourceText;
import io.hooklens.core.yaml.TemplateMask;
import java.util.ArrayList;
import java.util.List;

/**
 * Keeps, of the fixes rules computed on a chart template read with its actions masked, only those
 * that are true of the template as written. A fix is kept when every line it edits is free of template
 * actions (so masked and written text agree there, column for column), and so are the lines above it up
 * to the first line that is not blank or a comment: an edit next to an {@code {{ if }}} or
 * {@code {{ range }}} line could land inside a branch the reader did not see as one.
 */
final class TemplateFixes {
  private TemplateFixes() {}

  static List<Finding> verified(ParsedFile parsed, List<Finding> findings) {
    if (!parsed.templated() || findings.stream().allMatch(f -> f.fixes().isEmpty())) {
      return findings;
    }
    SourceText written = parsed.source();
    SourceText masked = new SourceText(TemplateMask.mask(written.text()));
    List<Finding> out = new ArrayList<>(findings.size());
    for (Finding f : findings) {
      List<Fix> kept = f.fixes().stream().filter(fix -> holds(fix, written, masked)).toList();
      out.add(kept.size() == f.fixes().size() ? f : f.withFixes(kept));
    }
    return out;
  }

  private static boolean holds(Fix fix, SourceText written, SourceText masked) {
    for (TextEdit e : fix.edits()) {
      if (e.newText().contains("{{") || e.newText().contains("}}")) {
        return false;
      }
      for (int l = e.range().start().line(); l <= e.range().end().line(); l++) {
        if (!written.line(l).equals(masked.line(l))) {
          return false;
        }
      }
      for (int l = e.range().start().line() - 1; l >= 0; l--) {
        String line = written.line(l);
        if (!line.equals(masked.line(l))) {
          return false;
        }
        if (!line.isBlank() && !line.stripLeading().startsWith("#")) {
          break;
        }
      }
    }
    return true;
  }
}
