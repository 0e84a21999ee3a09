package io.hooklens.core.engine;

import java.util.List;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A change that resolves a finding: non-overlapping text edits applied together. Most fixes are one edit, kept
 * without a list: a large file's findings carry a fix each.
 */
public final class Fix {
  private final String title;
  private final boolean safe;
  /** The one edit, or the list of several. */
  private final Object edits;

  /**
   * @param title what the change does, as an editor shows it ({@code Write "5"})
   * @param safe whether it keeps what the author meant, so that {@code hooklens lint --fix} applies it
   *     unattended; a fix that changes behaviour (a longer grace period) is offered in editors only
   */
  public Fix(String title, boolean safe, List<TextEdit> edits) {
    this.title = Objects.requireNonNull(title);
    this.safe = safe;
    this.edits = edits.size() == 1 ? Objects.requireNonNull(edits.get(0)) : List.copyOf(edits);
  }

  public String title() {
    return title;
  }

  public boolean safe() {
    return safe;
  }

  @SuppressWarnings("unchecked")
  public List<TextEdit> edits() {
    return edits instanceof TextEdit e ? List.of(e) : (List<TextEdit>) edits;
  }

  /** The lines of the original text this fix edits (zero-based); an insertion names its line. */
  public SortedSet<Integer> lines() {
    SortedSet<Integer> lines = new TreeSet<>();
    for (TextEdit e : edits()) {
      for (int l = e.range().start().line(); l <= e.range().end().line(); l++) {
        lines.add(l);
      }
    }
    return lines;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Fix f && safe == f.safe && title.equals(f.title) && edits.equals(f.edits);
  }

  @Override
  public int hashCode() {
    return Objects.hash(title, safe, edits);
  }

  @Override
  public String toString() {
    return "Fix[title=" + title + ", safe=" + safe + ", edits=" + edits() + "]";
  }
}
