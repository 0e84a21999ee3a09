package io.hooklens.core.model;

import io.hooklens.core.yaml.YMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Finds what a misspelled word was meant to be, for "did you mean" messages. */
public final class Spelling {
  private Spelling() {}

  /**
   * The candidates within {@code maxDistance} edits of {@code word}, ignoring case, nearest first;
   * several when they tie.
   */
  public static List<String> nearest(String word, List<String> candidates, int maxDistance) {
    String w = word.toLowerCase(Locale.ROOT);
    int best = maxDistance + 1;
    List<String> out = new ArrayList<>();
    for (String c : candidates) {
      if (Math.abs(c.length() - w.length()) > maxDistance) {
        // Each edit changes the length by at most one: too far apart without computing anything.
        continue;
      }
      int d = distance(w, c.toLowerCase(Locale.ROOT));
      if (d < best) {
        best = d;
        out.clear();
      }
      if (d == best) {
        out.add(c);
      }
    }
    return out;
  }

  /**
   * The field names {@code name} may be a typo of. Short names allow one edit, longer ones two, so that "exce"
   * finds "exec" but "foo" finds nothing; failing that, a name of five letters or more may be a field's name
   * cut short, as "activeDeadline" is of "activeDeadlineSeconds".
   */
  public static List<String> nearestField(String name, List<String> fields) {
    List<String> near = nearest(name, fields, name.length() <= 4 ? 1 : 2);
    if (!near.isEmpty() || name.length() < 5) {
      return near;
    }
    String prefix = name.toLowerCase(Locale.ROOT);
    return fields.stream().filter(f -> f.toLowerCase(Locale.ROOT).startsWith(prefix)).toList();
  }

  /**
   * Whether {@code map} lacks {@code field} but has a key, none of the {@code known} fields, that misspells it
   * ({@code failurPolicy}): the unknown-field rule reports that key with its correction, and a rule about the
   * missing field says nothing more.
   */
  public static boolean misspells(YMap map, String field, List<String> known) {
    if (map == null || map.entry(field) != null) {
      return false;
    }
    for (YMap.Entry e : map.entries()) {
      String name = e.key().value();
      if (!e.key().isTemplated() && !known.contains(name) && nearestField(name, known).contains(field)) {
        return true;
      }
    }
    return false;
  }

  /** Optimal string alignment distance: edits, with a swap of adjacent letters counting as one. */
  public static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
