package io.hooklens.core.engine;

import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A change that resolves a finding: non-overlapping text edits applied together.
 *
 * @param title what the change does, as an editor shows it ({@code Write "5"})
 * @param safe whether it keeps what the author meant, so that {@code hooklens lint --fix} applies it
 *     unattended; a fix that changes behaviour (a longer grace period) is offered in editors only
 */
public record Fix(String title, boolean safe, List<TextEdit> edits) {
  public Fix {
    edits = List.copyOf(edits);
  }

  /** The lines of the original text this fix edits (zero-based); an insertion names its line. */
  public SortedSet<Integer> lines() {
    SortedSet<Integer> lines = new TreeSet<>();
    for (TextEdit e : edits) {
      for (int l = e.range().start().line(); l <= e.range().end().line(); l++) {
        lines.add(l);
      }
    }
    return lines;
  }
}
