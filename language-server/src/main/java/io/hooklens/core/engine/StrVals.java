package io.hooklens.core.engine;

import java.util.ArrayList;
import java.util.List;

/**
 * Helm's {@code --set} syntax, read as Helm's strvals parser reads it (helm.sh/helm/v3, pkg/strvals):
 * {@code KEY=VALUE} pairs separated by commas; a key is names joined by dots, any name followed by list
 * indexes ({@code servers[0].port}); a value is text or a list in braces ({@code {a,b}}); a backslash
 * makes the next character plain ({@code kubernetes\.io/role}, {@code x\,y}). Values stay text: Helm
 * gives them their types. Where Helm silently drops a pair (an empty name, a key that ends with its dot
 * or index), this refuses it, since such a pair is a mistake.
 */
public final class StrVals {
  /** One step of a key's path. */
  public sealed interface Step permits Name, Index {}

  public record Name(String name) implements Step {}

  public record Index(int index) implements Step {}

  /**
   * One pair, escapes resolved.
   *
   * @param items the value, or the items of a list
   * @param list whether the value was a list in braces
   */
  public record Pair(List<Step> path, List<String> items, boolean list) {
    public Pair {
      path = List.copyOf(path);
      items = List.copyOf(items);
    }
  }

  /**
   * What reading one argument gave.
   *
   * @param pairs the pairs in order; empty when refused
   * @param error why Helm (or this reading) refuses the argument, or null
   */
  public record Parsed(List<Pair> pairs, String error) {}

  private static final int MAX_INDEX = 65536;
  private static final int MAX_NESTING = 30;
  /** Every character with a meaning somewhere in the syntax; escaping one anywhere is harmless. */
  private static final String SPECIAL = "\\=[],.{}";

  private StrVals() {}

  public static Parsed parse(String argument) {
    Reader r = new Reader(argument);
    try {
      while (r.pair(List.of(), 0)) {
        // One pair per round, as Helm's parser goes.
      }
      return new Parsed(List.copyOf(r.pairs), null);
    } catch (Refused e) {
      return new Parsed(List.of(), e.getMessage());
    }
  }

  /**
   * Pairs written back in the syntax with every special character escaped, separated by commas: Helm
   * reads them as the pairs they are, whatever an item holds.
   */
  public static String write(List<Pair> pairs) {
    StringBuilder out = new StringBuilder();
    for (Pair p : pairs) {
      if (out.length() > 0) {
        out.append(',');
      }
      out.append(key(p.path(), true));
      out.append('=');
      List<String> items = p.items().stream().map(StrVals::escape).toList();
      out.append(p.list() ? "{" + String.join(",", items) + "}" : items.get(0));
    }
    return out.toString();
  }

  private static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length());
    text.codePoints().forEach(c -> {
      if (SPECIAL.indexOf(c) >= 0) {
        out.append('\\');
      }
      out.appendCodePoint(c);
    });
    return out.toString();
  }

  /** A key as messages show it ({@code servers[0].port}), or escaped for Helm to read. */
  private static String key(List<Step> path, boolean escaped) {
    StringBuilder out = new StringBuilder();
    for (Step s : path) {
      if (s instanceof Index i) {
        out.append('[').append(i.index()).append(']');
      } else {
        String name = ((Name) s).name();
        out.append(out.length() > 0 ? "." : "").append(escaped ? escape(name) : name);
      }
    }
    return out.toString();
  }

  private static List<Step> with(List<Step> path, Step step) {
    List<Step> longer = new ArrayList<>(path);
    longer.add(step);
    return longer;
  }

  private static final class Refused extends RuntimeException {
    Refused(String message) {
      super(message, null, false, false);
    }
  }

  /** Helm's parser, step for step, recording pairs instead of setting values. */
  private static final class Reader {
    private static final int END = -1;

    private final int[] runes;
    private final List<Pair> pairs = new ArrayList<>();
    private int pos;
    /** The stop character the last {@link #until} met, or {@link #END}. */
    private int last;

    Reader(String text) {
      this.runes = text.codePoints().toArray();
    }

    /** Reads up to one of the stop characters, which is consumed, or the end; escapes resolved. */
    private String until(String stops) {
      StringBuilder out = new StringBuilder();
      while (pos < runes.length) {
        int r = runes[pos++];
        if (stops.indexOf(r) >= 0) {
          last = r;
          return out.toString();
        }
        if (r == '\\') {
          if (pos == runes.length) {
            break;
          }
          r = runes[pos++];
        }
        out.appendCodePoint(r);
      }
      last = END;
      return out.toString();
    }

    /** One pair under a path; false when the text has ended before it. */
    boolean pair(List<Step> path, int nesting) {
      String name = until("=[,.");
      if (last == END) {
        if (!name.isEmpty()) {
          throw new Refused("key \"" + key(with(path, new Name(name)), false) + "\" has no value");
        }
        if (!path.isEmpty()) {
          throw new Refused("key \"" + key(path, false) + "\" has no value");
        }
        return false;
      }
      if (name.isEmpty()) {
        throw new Refused("empty key before \"" + Character.toString(last) + "\"");
      }
      List<Step> at = with(path, new Name(name));
      switch (last) {
        case '[' -> item(at, index(), nesting);
        case '=' -> value(at);
        case ',' -> throw new Refused("key \"" + key(at, false) + "\" has no value (cannot end with ,)");
        default -> {
          if (nesting + 1 > MAX_NESTING) {
            throw new Refused("value name nested level is greater than maximum supported nested level of "
                + MAX_NESTING);
          }
          pair(at, nesting + 1);
        }
      }
      return true;
    }

    private int index() {
      String digits = until("]");
      if (last == END) {
        throw new Refused("error parsing index: \"[" + digits + "\" has no ]");
      }
      long i;
      try {
        i = Long.parseLong(digits);
      } catch (NumberFormatException e) {
        throw new Refused("error parsing index: \"" + digits + "\" is not a number");
      }
      if (i < 0) {
        throw new Refused("negative " + i + " index not allowed");
      }
      if (i > MAX_INDEX) {
        throw new Refused("index of " + i + " is greater than maximum supported index of " + MAX_INDEX);
      }
      return (int) i;
    }

    /** What follows a list index: a value, another index, or a key inside the item. */
    private void item(List<Step> list, int index, int nesting) {
      String extra = until("[.=");
      List<Step> at = with(list, new Index(index));
      if (!extra.isEmpty()) {
        throw new Refused("unexpected data at end of array index: \"" + extra + "\"");
      }
      switch (last) {
        case END -> throw new Refused("key \"" + key(at, false) + "\" has no value");
        case '=' -> value(at);
        case '[' -> item(at, index(), nesting);
        default -> pair(at, nesting);
      }
    }

    /** The value after a key's {@code =}, up to the comma after it. */
    private void value(List<Step> at) {
      if (pos == runes.length) {
        pairs.add(new Pair(at, List.of(""), false));
        return;
      }
      if (runes[pos] != '{') {
        pairs.add(new Pair(at, List.of(until(",")), false));
        return;
      }
      pos++;
      List<String> items = new ArrayList<>();
      while (true) {
        items.add(until(",}"));
        if (last == END) {
          throw new Refused("list must terminate with '}'");
        }
        if (last == '}') {
          if (pos < runes.length && runes[pos] == ',') {
            pos++;
          }
          pairs.add(new Pair(at, items, true));
          return;
        }
      }
    }
  }
}
